import * as z from 'zod';
import { namesAField, subject } from '../../http/activity.js';
import { routesOf } from '../../http/route.js';
import { IdParamSchema } from '../../wire/common.schema.js';
import { PageQuerySchema, pageOf } from '../../wire/pagination.schema.js';
import { NameSlugSchema } from '../../wire/slug.js';
import { CreateTagSchema, TagSchema, UpdateTagSchema } from './tags.schema.js';

const route = routesOf('tags');
const id = { id: IdParamSchema };
const TagAnswer = z.object({ tag: TagSchema });

/** `/v1/tags`: public reads, verified writes (docs/api.md#tags). */
export const tagsRoutes = [
  route({
    method: 'get',
    path: '/v1/tags',
    summary: 'Tags, newest first',
    allow: 'public',
    cache: 'shared',
    query: PageQuerySchema,
    responses: { 200: pageOf(TagSchema) },
    handler: async (c, { query, services }) => c.json(await services.tags.list(query.limit, query.cursor)),
  }),
  route({
    method: 'post',
    path: '/v1/tags',
    summary: 'Create a tag (slug made from the name when left out; unique)',
    allow: 'tags.write',
    body: CreateTagSchema,
    responses: { 201: TagAnswer },
    errors: [409],
    handler: async (c, { body, services }) => {
      const tag = await services.tags.create(body);
      c.var.audit('tag.create', { ...subject('tag', tag.id), details: { name: tag.name, slug: tag.slug } });
      return c.json({ tag }, 201);
    },
  }),
  route({
    method: 'get',
    path: '/v1/tags/{id}',
    summary: 'One tag',
    allow: 'public',
    cache: 'shared',
    params: id,
    responses: { 200: TagAnswer },
    handler: async (c, { params, services }) => c.json({ tag: await services.tags.get(params.id) }),
  }),
  route({
    method: 'get',
    path: '/v1/tags/slug/{slug}',
    summary: 'One tag, by its slug',
    allow: 'public',
    cache: 'shared',
    // A slug that cannot exist (not lower-case words joined by hyphens) is a 404, as an unknown one is.
    params: { slug: NameSlugSchema },
    responses: { 200: TagAnswer },
    handler: async (c, { params, services }) => c.json({ tag: await services.tags.getBySlug(params.slug) }),
  }),
  route({
    method: 'patch',
    path: '/v1/tags/{id}',
    summary: 'Rename a tag or change its slug (slug unique)',
    allow: 'tags.write',
    params: id,
    body: UpdateTagSchema,
    responses: { 200: TagAnswer },
    errors: [409],
    handler: async (c, { params, body, services }) => {
      const tag = await services.tags.update(params.id, body);
      // A body that names no field changed nothing: nothing to log.
      if (namesAField(body))
        c.var.audit('tag.update', { ...subject('tag', tag.id), details: { name: tag.name, slug: tag.slug } });
      return c.json({ tag });
    },
  }),
  route({
    method: 'delete',
    path: '/v1/tags/{id}',
    summary: 'Delete a tag (it leaves every article that carried it)',
    allow: 'tags.write',
    params: id,
    responses: { 204: null },
    handler: async (c, { params, services }) => {
      await services.tags.delete(params.id);
      c.var.audit('tag.delete', subject('tag', params.id));
      return c.body(null, 204);
    },
  }),
];
