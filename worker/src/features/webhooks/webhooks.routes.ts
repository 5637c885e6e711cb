import * as z from 'zod';
import { namesAField, subject } from '../../http/activity.js';
import { routesOf } from '../../http/route.js';
import { IdParamSchema } from '../../wire/common.schema.js';
import { PageQuerySchema, pageOf } from '../../wire/pagination.schema.js';
import {
  CreatedWebhookSchema,
  CreateWebhookSchema,
  UpdateWebhookSchema,
  WebhookAttemptSchema,
  WebhookSchema,
} from './webhook.schema.js';

const route = routesOf('webhooks');
const id = { id: IdParamSchema };
const WebhookAnswer = z.object({ webhook: WebhookSchema });

/** `/v1/webhooks`: the owner's endpoints, signed per Standard Webhooks (docs/api.md#webhooks). */
export const webhooksRoutes = [
  route({
    method: 'get',
    path: '/v1/webhooks',
    summary: 'Webhook endpoints, newest first (never their secrets)',
    allow: 'webhooks.manage',
    query: PageQuerySchema,
    responses: { 200: pageOf(WebhookSchema) },
    handler: async (c, { query, services }) => c.json(await services.webhooks.list(query.limit, query.cursor)),
  }),
  route({
    method: 'post',
    path: '/v1/webhooks',
    summary: 'Add an endpoint: its signing secret is in this answer only',
    allow: 'webhooks.manage',
    body: CreateWebhookSchema,
    responses: { 201: CreatedWebhookSchema },
    errors: [409],
    handler: async (c, { body, services }) => {
      const created = await services.webhooks.create(body);
      const { webhook } = created;
      c.var.audit('webhook.create', {
        ...subject('webhook', webhook.id),
        details: { url: webhook.url, events: webhook.events },
      });
      // The secret is in this response and nowhere else, ever: never cached.
      c.header('cache-control', 'no-store');
      return c.json(created, 201);
    },
  }),
  route({
    method: 'get',
    path: '/v1/webhooks/{id}',
    summary: 'One endpoint',
    allow: 'webhooks.manage',
    params: id,
    responses: { 200: WebhookAnswer },
    handler: async (c, { params, services }) => c.json({ webhook: await services.webhooks.get(params.id) }),
  }),
  route({
    method: 'patch',
    path: '/v1/webhooks/{id}',
    summary: 'Change an endpoint’s URL, events, description, or pause it (`active: false`)',
    allow: 'webhooks.manage',
    params: id,
    body: UpdateWebhookSchema,
    responses: { 200: WebhookAnswer },
    handler: async (c, { params, body, services }) => {
      const { webhook, changed } = await services.webhooks.update(params.id, body);
      if (changed && namesAField(body))
        c.var.audit('webhook.update', { ...subject('webhook', webhook.id), details: { fields: Object.keys(body) } });
      return c.json({ webhook });
    },
  }),
  route({
    method: 'delete',
    path: '/v1/webhooks/{id}',
    summary: 'Remove an endpoint, with what it was still owed',
    allow: 'webhooks.manage',
    params: id,
    responses: { 204: null },
    handler: async (c, { params, services }) => {
      await services.webhooks.delete(params.id);
      c.var.audit('webhook.delete', subject('webhook', params.id));
      return c.body(null, 204);
    },
  }),
  route({
    method: 'post',
    path: '/v1/webhooks/{id}/test',
    summary: 'Send a signed `webhook.test` message now (once, no retries) and answer how it went',
    allow: 'webhooks.manage',
    params: id,
    responses: { 200: z.object({ attempt: WebhookAttemptSchema }) },
    errors: [409],
    handler: async (c, { params, services }) => {
      const attempt = await services.webhooks.test(params.id);
      c.var.audit('webhook.test', { ...subject('webhook', params.id), details: { status: attempt.status } });
      return c.json({ attempt });
    },
  }),
  route({
    method: 'get',
    path: '/v1/webhooks/{id}/deliveries',
    summary: 'Recent delivery attempts to an endpoint, newest first',
    allow: 'webhooks.manage',
    params: id,
    query: PageQuerySchema,
    responses: { 200: pageOf(WebhookAttemptSchema) },
    handler: async (c, { params, query, services }) =>
      c.json(await services.webhooks.attempts(params.id, query.limit, query.cursor)),
  }),
];
