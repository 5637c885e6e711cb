import { Hono } from 'hono';
import { PageQuerySchema } from '../../contract/pagination.schema.js';
import { PurgeRunRequestSchema, PurgeSettingsSchema } from '../../contract/purge.schema.js';
import type { AppEnv } from '../env.js';
import { allow } from '../middleware/auth.js';
import { validate } from '../validate.js';

/** `/v1/media/purge`: duplicate and orphan purge, its settings and its record. */
export const purgeRoutes = new Hono<AppEnv>()
  .get('/settings', allow('media.read'), async (c) => c.json({ settings: await c.var.services.purge.settings() }))
  .put('/settings', allow('purge.configure'), validate('json', PurgeSettingsSchema), async (c) =>
    c.json({ settings: await c.var.services.purge.saveSettings(c.req.valid('json')) }),
  )
  .get('/runs', allow('media.read'), validate('query', PageQuerySchema), async (c) => {
    const { limit, cursor } = c.req.valid('query');
    return c.json(await c.var.services.purge.runs(limit, cursor));
  })
  .post('/', allow('purge.run'), validate('json', PurgeRunRequestSchema), async (c) =>
    c.json({ run: await c.var.services.purge.run(c.req.valid('json').dryRun ?? false) }),
  );
