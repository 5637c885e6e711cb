// What other features may use of the activity log; its schemas (activity.schema.ts) are the other door, shared with the admin.
export type { ActivityService } from './activity.service.js';
