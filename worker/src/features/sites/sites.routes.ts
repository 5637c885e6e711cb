import * as z from 'zod';
import { namesAField, subject } from '../../http/activity.js';
import { routesOf } from '../../http/route.js';
import { IdParamSchema } from '../../wire/common.schema.js';
import { PageQuerySchema, pageOf } from '../../wire/pagination.schema.js';
import { CreateSiteSchema, SiteSchema, UpdateSiteSchema } from './site.schema.js';

const route = routesOf('sites');
const id = { id: IdParamSchema };
const SiteAnswer = z.object({ site: SiteSchema });

/** `/v1/sites`: public reads, verified writes (docs/api.md#sites-and-authors). */
export const sitesRoutes = [
  route({
    method: 'get',
    path: '/v1/sites',
    summary: 'Sites, newest first',
    allow: 'public',
    cache: 'shared',
    query: PageQuerySchema,
    responses: { 200: pageOf(SiteSchema) },
    handler: async (c, { query, services }) => c.json(await services.sites.list(query.limit, query.cursor)),
  }),
  route({
    method: 'post',
    path: '/v1/sites',
    summary: 'Create a site',
    allow: 'sites.write',
    body: CreateSiteSchema,
    responses: { 201: SiteAnswer },
    handler: async (c, { body, services }) => {
      const site = await services.sites.create(body);
      c.var.audit('site.create', { ...subject('site', site.id), details: { name: site.name } });
      return c.json({ site }, 201);
    },
  }),
  route({
    method: 'get',
    path: '/v1/sites/{id}',
    summary: 'One site',
    allow: 'public',
    cache: 'shared',
    params: id,
    responses: { 200: SiteAnswer },
    handler: async (c, { params, services }) => c.json({ site: await services.sites.get(params.id) }),
  }),
  route({
    method: 'patch',
    path: '/v1/sites/{id}',
    summary: 'Edit a site',
    allow: 'sites.write',
    params: id,
    body: UpdateSiteSchema,
    responses: { 200: SiteAnswer },
    handler: async (c, { params, body, services }) => {
      const site = await services.sites.update(params.id, body);
      // A body that names no field changed nothing: nothing to log.
      if (namesAField(body)) c.var.audit('site.update', { ...subject('site', site.id), details: { name: site.name } });
      return c.json({ site });
    },
  }),
  route({
    method: 'delete',
    path: '/v1/sites/{id}',
    summary: 'Delete a site (409 while articles use it)',
    allow: 'sites.write',
    params: id,
    responses: { 204: null },
    errors: [409],
    handler: async (c, { params, services }) => {
      await services.sites.delete(params.id);
      c.var.audit('site.delete', subject('site', params.id));
      return c.body(null, 204);
    },
  }),
];
