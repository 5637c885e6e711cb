import { Hono, type MiddlewareHandler } from 'hono';
import { PageQuerySchema } from '../../contract/pagination.schema.js';
import { DomainError } from '../../core/domain/errors.js';
import { subject } from '../../http/activity.js';
import type { AppEnv } from '../../http/env.js';
import { allow } from '../../http/middleware/auth.js';
import { validate } from '../../http/validate.js';
import { PurgeRunRequestSchema, PurgeSettingsSchema } from './purge.schema.js';
import { purgeRunDetails } from './purge.service.js';

/**
 * No body means a real run, so a body the JSON validator would skip (another
 * content type) must not quietly turn an intended dry run into a real one.
 */
const jsonOrNoBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const type = c.req.header('content-type');
  const length = c.req.header('content-length');
  const hasBody =
    type !== undefined || (length !== undefined && length !== '0') || c.req.header('transfer-encoding') !== undefined;
  if (hasBody && !/^application\/json\s*(;|$)/i.test(type ?? '')) {
    const message = 'Send the body as application/json, or no body for a real run';
    throw new DomainError('invalid_request', message, [{ path: 'body', message }]);
  }
  await next();
};

/** `/v1/media/purge`: duplicate and orphan purge, its settings and its record. */
export const purgeRoutes = new Hono<AppEnv>()
  .get('/settings', allow('purge.read'), async (c) => c.json({ settings: await c.var.services.purge.settings() }))
  .put('/settings', allow('purge.configure'), validate('json', PurgeSettingsSchema), async (c) => {
    const settings = await c.var.services.purge.saveSettings(c.req.valid('json'));
    c.var.audit('media.purge.settings', { ...subject('purgeSettings', null), details: { ...settings } });
    return c.json({ settings });
  })
  .get('/runs', allow('purge.read'), validate('query', PageQuerySchema), async (c) => {
    const { limit, cursor } = c.req.valid('query');
    return c.json(await c.var.services.purge.runs(limit, cursor));
  })
  .post('/', allow('purge.run'), jsonOrNoBody, validate('json', PurgeRunRequestSchema), async (c) => {
    const run = await c.var.services.purge.run(c.req.valid('json').dryRun ?? false);
    c.var.audit('media.purge', { ...subject('purgeRun', run.id), details: purgeRunDetails(run) });
    return c.json({ run });
  });
