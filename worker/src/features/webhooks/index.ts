// What other features may use of webhooks; its schemas (webhook.schema.ts) are the other door, shared with the admin.
export { articleEventData } from './webhook-events.js';
export type { WebhooksService } from './webhooks.service.js';
