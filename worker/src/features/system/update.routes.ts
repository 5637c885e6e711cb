import type { Context } from 'hono';
import { DomainError } from '../../core/domain/errors.js';
import { ReleaseRefusedError } from '../../core/releases/refusal.js';
import { UpdatesUnavailableError } from '../../core/releases/update.service.js';
import type { AppEnv, Services } from '../../http/env.js';
import { currentUser } from '../../http/middleware/auth.js';
import { routesOf } from '../../http/route.js';
import { type UpdateStatusDto, UpdateStatusSchema } from './system.schema.js';
import { recordUpdateActivity } from './update-activity.js';

type UpdateAction = 'update.check' | 'update.download' | 'update.apply' | 'update.rollback';

/**
 * Runs one update operation for the route: its activity entry (refusals
 * included, with their reason) and the release verifier's errors in the
 * contract's terms — a refusal is a 400 naming its reason, a state that
 * does not allow it a 409. Any outcome of the supervisor not yet in the
 * activity log is written first.
 */
async function answer(
  c: Context<AppEnv>,
  services: Services,
  action: UpdateAction | null,
  work: () => Promise<UpdateStatusDto>,
) {
  await services.updates.reportOutcome(recordUpdateActivity(services.activity));
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

const route = routesOf('system');

/**
 * `/v1/system/update` (docs/api.md). Apply and rollback answer 202 once the supervisor
 * has accepted: it then stops this process and starts the other release;
 * GET shows the outcome (`lastApply`) when the new process answers. Where
 * there is no supervisor (Workers, or Node started without it) they are a
 * 409 saying what to do instead.
 */
export const updateRoutes = [
  route({
    method: 'get',
    path: '/v1/system/update',
    summary: 'Running version, newest release in the feed, what is staged',
    allow: 'system.read',
    responses: { 200: UpdateStatusSchema },
    handler: async (c, { services }) => c.json(await answer(c, services, null, () => services.updates.status())),
  }),
  route({
    method: 'post',
    path: '/v1/system/update/check',
    summary: 'Read and verify the release feed now',
    allow: 'updates.apply',
    responses: { 200: UpdateStatusSchema },
    errors: [400, 409],
    handler: async (c, { services }) =>
      c.json(await answer(c, services, 'update.check', () => services.updates.check())),
  }),
  route({
    method: 'post',
    path: '/v1/system/update/download',
    summary: 'Download, verify and stage the newest release (Node); 400 names the refusal, nothing staged',
    allow: 'updates.apply',
    responses: { 200: UpdateStatusSchema },
    errors: [400, 409],
    handler: async (c, { services }) =>
      c.json(await answer(c, services, 'update.download', () => services.updates.download())),
  }),
  route({
    method: 'post',
    path: '/v1/system/update/apply',
    summary:
      'Node under the supervisor: restart into the staged release (SQLite backed up first); back to the running one by itself when /readyz is not healthy in time. 202 once the supervisor accepted; GET shows pending, then lastApply. 409 on Workers (an update is a deployment: docs/releases.md), without the supervisor, with nothing newer staged, or while a switch runs',
    allow: 'updates.apply',
    responses: { 202: UpdateStatusSchema },
    errors: [409],
    handler: async (c, { services }) =>
      c.json(await answer(c, services, 'update.apply', () => services.updates.apply(currentUser(c).id)), 202),
  }),
  route({
    method: 'post',
    path: '/v1/system/update/rollback',
    summary:
      'Node under the supervisor: back to `previous`, restoring the SQLite backup taken when it was left (writes since are set aside in a new backup). 202 once accepted; 409 as for apply, or with no previous release',
    allow: 'updates.apply',
    responses: { 202: UpdateStatusSchema },
    errors: [409],
    handler: async (c, { services }) =>
      c.json(await answer(c, services, 'update.rollback', () => services.updates.rollback(currentUser(c).id)), 202),
  }),
];
