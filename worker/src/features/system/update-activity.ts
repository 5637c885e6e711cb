import type { UpdateActivity } from '../../core/releases/update.service.js';
import { type ActivityService, SYSTEM } from '../activity/activity.service.js';

/** What the supervisor did, as a system entry of the activity log (an automatic rollback above all). */
export const recordUpdateActivity =
  (activity: Pick<ActivityService, 'record'>) =>
  (a: UpdateActivity): Promise<void> =>
    activity.record({
      actor: SYSTEM,
      action: a.action,
      subject: { type: 'release', id: a.version },
      details: a.details,
    });
