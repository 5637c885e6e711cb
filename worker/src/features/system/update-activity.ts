import type { UpdateActivity } from '../../core/releases/update.service.js';
import { SYSTEM } from '../../ports/write-effects.js';
import type { ActivityService } from '../activity/index.js';

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
