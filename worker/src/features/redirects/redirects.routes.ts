import * as z from 'zod';
import { featurePermission } from '../../auth/policy.js';
import { namesAField, subject } from '../../http/activity.js';
import { routesOf } from '../../http/route.js';
import { IdParamSchema } from '../../wire/common.schema.js';
import { PageQuerySchema, pageOf } from '../../wire/pagination.schema.js';
import type { RedirectDto } from './redirects.schema.js';
import {
  CreateRedirectSchema,
  RedirectLookupQuerySchema,
  RedirectSchema,
  UpdateRedirectSchema,
} from './redirects.schema.js';

/** Writing redirects: verified accounts, and API keys with content:write (as tags). */
export const redirectsWrite = featurePermission('redirects.write', 'verified', ['content:write']);

const route = routesOf('redirects');
const id = { id: IdParamSchema };
const RedirectAnswer = z.object({ redirect: RedirectSchema });
const logged = ({ from, to, status }: RedirectDto) => ({ from, to, status });

/** `/v1/redirects`: public reads for the sites' frontends, verified writes (docs/api.md#redirects). */
export const redirectsRoutes = [
  route({
    method: 'get',
    path: '/v1/redirects',
    summary: 'Redirects, newest first',
    allow: 'public',
    cache: 'shared',
    query: PageQuerySchema,
    responses: { 200: pageOf(RedirectSchema) },
    handler: async (c, { query, services }) => c.json(await services.redirects.list(query.limit, query.cursor)),
  }),
  route({
    method: 'post',
    path: '/v1/redirects',
    summary: 'Create a redirect (from unique; status 301 when left out)',
    allow: redirectsWrite,
    body: CreateRedirectSchema,
    responses: { 201: RedirectAnswer },
    errors: [409],
    handler: async (c, { body, services }) => {
      const redirect = await services.redirects.create(body);
      c.var.audit('redirect.create', { ...subject('redirect', redirect.id), details: logged(redirect) });
      return c.json({ redirect }, 201);
    },
  }),
  // Before `/v1/redirects/{id}`: `lookup` is no id, and routes match in order.
  route({
    method: 'get',
    path: '/v1/redirects/lookup',
    summary: 'Where a path goes now: its redirect (one hop), or 404',
    allow: 'public',
    cache: 'shared',
    query: RedirectLookupQuerySchema,
    responses: { 200: RedirectAnswer },
    errors: [404],
    handler: async (c, { query, services }) => c.json({ redirect: await services.redirects.lookup(query.path) }),
  }),
  route({
    method: 'get',
    path: '/v1/redirects/{id}',
    summary: 'One redirect',
    allow: 'public',
    cache: 'shared',
    params: id,
    responses: { 200: RedirectAnswer },
    handler: async (c, { params, services }) => c.json({ redirect: await services.redirects.get(params.id) }),
  }),
  route({
    method: 'patch',
    path: '/v1/redirects/{id}',
    summary: 'Change a redirect (from unique)',
    allow: redirectsWrite,
    params: id,
    body: UpdateRedirectSchema,
    responses: { 200: RedirectAnswer },
    errors: [409],
    handler: async (c, { params, body, services }) => {
      const redirect = await services.redirects.update(params.id, body);
      // A body that names no field changed nothing: nothing to log.
      if (namesAField(body))
        c.var.audit('redirect.update', { ...subject('redirect', redirect.id), details: logged(redirect) });
      return c.json({ redirect });
    },
  }),
  route({
    method: 'delete',
    path: '/v1/redirects/{id}',
    summary: 'Delete a redirect',
    allow: redirectsWrite,
    params: id,
    responses: { 204: null },
    handler: async (c, { params, services }) => {
      const redirect = await services.redirects.delete(params.id);
      c.var.audit('redirect.delete', { ...subject('redirect', params.id), details: logged(redirect) });
      return c.body(null, 204);
    },
  }),
];
