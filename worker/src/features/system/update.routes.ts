import { type Context, Hono } from 'hono';
import { DomainError } from '../../core/domain/errors.js';
import { ReleaseRefusedError } from '../../core/releases/refusal.js';
import {
  type UpdateActivity,
  type UpdateService,
  type UpdateStatusDto,
  UpdatesUnavailableError,
} from '../../core/releases/update.service.js';
import type { AppEnv } from '../../http/env.js';
import { allow, currentUser } from '../../http/middleware/auth.js';
import { type createActivityService, SYSTEM } from '../activity/activity.service.js';

type UpdateAction = 'update.check' | 'update.download' | 'update.apply' | 'update.rollback';

/** What the supervisor did, as a system entry of the activity log (an automatic rollback above all). */
export const recordUpdateActivity =
  (activity: Pick<ReturnType<typeof createActivityService>, 'record'>) =>
  (a: UpdateActivity): Promise<void> =>
    activity.record({
      actor: SYSTEM,
      action: a.action,
      subject: { type: 'release', id: a.version },
      details: a.details,
    });

/**
 * Runs one update operation for the route: its activity entry (refusals
 * included, with their reason) and the release verifier's errors in the
 * contract's terms — a refusal is a 400 naming its reason, a state that
 * does not allow it a 409. Any outcome of the supervisor not yet in the
 * activity log is written first.
 */
async function answer(
  c: Context<AppEnv>,
  updates: UpdateService,
  action: UpdateAction | null,
  work: () => Promise<UpdateStatusDto>,
) {
  await updates.reportOutcome(recordUpdateActivity(c.var.services.activity));
  try {
    const dto = await work();
    if (action)
      c.var.audit(action, {
        subject: { type: 'release', id: dto.pending?.version ?? dto.staged ?? dto.latest },
        details: { current: dto.current, latest: dto.latest, staged: dto.staged },
      });
    return dto;
  } catch (err) {
    if (err instanceof ReleaseRefusedError) {
      if (action) c.var.audit(action, { details: { refused: err.reason, message: err.message } });
      throw new DomainError('invalid_request', `Update refused: ${err.message}`, [
        { path: 'release', message: err.reason },
      ]);
    }
    if (err instanceof UpdatesUnavailableError) throw new DomainError('conflict', err.message);
    throw err;
  }
}

/**
 * `/v1/system/update` (docs/api.md). Apply and rollback answer 202 once the
 * supervisor has accepted: it then stops this process and starts the other
 * release; GET shows the outcome (`lastApply`) when the new process answers.
 * Where there is no supervisor (Workers, or Node started without it) they
 * are a 409 saying what to do instead.
 */
export const updateRoutes = (updates: UpdateService) =>
  new Hono<AppEnv>()
    .get('/', allow('system.read'), async (c) => c.json(await answer(c, updates, null, () => updates.status())))
    .post('/check', allow('updates.apply'), async (c) =>
      c.json(await answer(c, updates, 'update.check', () => updates.check())),
    )
    .post('/download', allow('updates.apply'), async (c) =>
      c.json(await answer(c, updates, 'update.download', () => updates.download())),
    )
    .post('/apply', allow('updates.apply'), async (c) =>
      c.json(await answer(c, updates, 'update.apply', () => updates.apply(currentUser(c).id)), 202),
    )
    .post('/rollback', allow('updates.apply'), async (c) =>
      c.json(await answer(c, updates, 'update.rollback', () => updates.rollback(currentUser(c).id)), 202),
    );
