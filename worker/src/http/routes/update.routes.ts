import { Hono } from 'hono';
import { ReleaseRefusedError } from '../../core/releases/refusal.js';
import { UpdatesUnavailableError, type UpdateService, type UpdateStatusDto } from '../../core/releases/update.service.js';
import { DomainError } from '../../core/domain/errors.js';
import type { AppEnv } from '../env.js';
import { allow, currentUser } from '../middleware/auth.js';

/** The release verifier's own errors, in the contract's terms: a refusal is a 400 naming its reason. */
async function answer(work: () => Promise<UpdateStatusDto>): Promise<UpdateStatusDto> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ReleaseRefusedError) {
      throw new DomainError('invalid_request', `Update refused: ${err.message}`, [{ path: 'release', message: err.reason }]);
    }
    if (err instanceof UpdatesUnavailableError) throw new DomainError('conflict', err.message);
    throw err;
  }
}

/**
 * `/v1/system/update` (API.md). Apply and rollback answer 202 once the
 * supervisor has accepted: it then stops this process and starts the other
 * release; GET shows the outcome (`lastApply`) when the new process answers.
 * Where there is no supervisor (Workers, or Node started without it) they
 * are a 409 saying what to do instead.
 */
export const updateRoutes = (updates: UpdateService) =>
  new Hono<AppEnv>()
    .get('/', allow('system.read'), async (c) => c.json(await answer(() => updates.status())))
    .post('/check', allow('updates.apply'), async (c) => c.json(await answer(() => updates.check())))
    .post('/download', allow('updates.apply'), async (c) => c.json(await answer(() => updates.download())))
    .post('/apply', allow('updates.apply'), async (c) => c.json(await answer(() => updates.apply(currentUser(c).id)), 202))
    .post('/rollback', allow('updates.apply'), async (c) => c.json(await answer(() => updates.rollback(currentUser(c).id)), 202));
