import { Hono } from 'hono';
import { subject } from '../../http/activity.js';
import type { AppEnv } from '../../http/env.js';
import { allow } from '../../http/middleware/auth.js';
import { idParam } from '../../http/params.js';
import { validate } from '../../http/validate.js';
import { MediaListQuerySchema } from './media.schema.js';

/** `/v1/media`: the library across articles, and the variant cache panel. */
export const mediaRoutes = new Hono<AppEnv>()
  .get('/', allow('media.read'), validate('query', MediaListQuerySchema), async (c) =>
    c.json(await c.var.services.media.list(c.req.valid('query'))),
  )
  .get('/variants', allow('media.read'), async (c) => c.json(await c.var.services.variants.stats()))
  .delete('/variants', allow('media.manage'), async (c) => {
    await c.var.services.variants.clearAll();
    c.var.audit('media.variants.clear', subject('variants', null));
    return c.body(null, 204);
  })
  .get('/:id', allow('media.read'), async (c) =>
    c.json({ image: await c.var.services.media.get(idParam(c.req.param('id'))) }),
  )
  .delete('/:id', allow('media.manage'), async (c) => {
    const id = idParam(c.req.param('id'));
    await c.var.services.media.delete(id);
    c.var.audit('image.delete', subject('image', id));
    return c.body(null, 204);
  })
  .delete('/:id/variants', allow('media.manage'), async (c) => {
    const id = idParam(c.req.param('id'));
    await c.var.services.media.clearVariants(id);
    c.var.audit('image.variants.clear', subject('image', id));
    return c.body(null, 204);
  });
