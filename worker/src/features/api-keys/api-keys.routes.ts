import { subject } from '../../http/activity.js';
import { currentUser } from '../../http/middleware/auth.js';
import { routesOf } from '../../http/route.js';
import { IdParamSchema } from '../../wire/common.schema.js';
import { PageQuerySchema, pageOf } from '../../wire/pagination.schema.js';
import { ApiKeySchema, CreateApiKeySchema, CreatedApiKeySchema } from './api-key.schema.js';

const route = routesOf('api-keys');

/** `/v1/api-keys`: the owner's integration keys (docs/api.md#api-keys). */
export const apiKeysRoutes = [
  route({
    method: 'get',
    path: '/v1/api-keys',
    summary: 'Integration keys (never their secrets)',
    allow: 'apiKeys.manage',
    query: PageQuerySchema,
    responses: { 200: pageOf(ApiKeySchema) },
    handler: async (c, { query, services }) => c.json(await services.apiKeys.list(query.limit, query.cursor)),
  }),
  route({
    method: 'post',
    path: '/v1/api-keys',
    summary: 'Create a key: the secret is in this answer only',
    allow: 'apiKeys.manage',
    body: CreateApiKeySchema,
    responses: { 201: CreatedApiKeySchema },
    handler: async (c, { body, services }) => {
      const created = await services.apiKeys.create(currentUser(c), body);
      const { apiKey } = created;
      c.var.audit('apiKey.create', {
        ...subject('apiKey', apiKey.id),
        details: { name: apiKey.name, scopes: apiKey.scopes, expiresAt: apiKey.expiresAt },
      });
      // The secret is in this response and nowhere else, ever: never cached.
      c.header('cache-control', 'no-store');
      return c.json(created, 201);
    },
  }),
  route({
    method: 'delete',
    path: '/v1/api-keys/{id}',
    summary: 'Revoke a key: refused from the next request on',
    allow: 'apiKeys.manage',
    params: { id: IdParamSchema },
    responses: { 204: null },
    handler: async (c, { params, services }) => {
      await services.apiKeys.delete(params.id);
      c.var.audit('apiKey.delete', subject('apiKey', params.id));
      return c.body(null, 204);
    },
  }),
];
