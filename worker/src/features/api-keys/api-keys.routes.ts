import { Hono } from 'hono';
import { PageQuerySchema } from '../../contract/pagination.schema.js';
import { subject } from '../../http/activity.js';
import type { AppEnv } from '../../http/env.js';
import { allow, currentUser } from '../../http/middleware/auth.js';
import { idParam } from '../../http/params.js';
import { validate } from '../../http/validate.js';
import { CreateApiKeySchema } from './api-key.schema.js';

/** `/v1/api-keys`: the owner's integration keys (docs/api.md#api-keys). */
export const apiKeysRoutes = new Hono<AppEnv>()
  .get('/', allow('apiKeys.manage'), validate('query', PageQuerySchema), async (c) => {
    const { limit, cursor } = c.req.valid('query');
    return c.json(await c.var.services.apiKeys.list(limit, cursor));
  })
  .post('/', allow('apiKeys.manage'), validate('json', CreateApiKeySchema), async (c) => {
    const created = await c.var.services.apiKeys.create(currentUser(c), c.req.valid('json'));
    const { apiKey } = created;
    c.var.audit('apiKey.create', {
      ...subject('apiKey', apiKey.id),
      details: { name: apiKey.name, scopes: apiKey.scopes, expiresAt: apiKey.expiresAt },
    });
    // The secret is in this response and nowhere else, ever: never cached.
    c.header('cache-control', 'no-store');
    return c.json(created, 201);
  })
  .delete('/:id', allow('apiKeys.manage'), async (c) => {
    const id = idParam(c.req.param('id'));
    await c.var.services.apiKeys.delete(id);
    c.var.audit('apiKey.delete', subject('apiKey', id));
    return c.body(null, 204);
  });
