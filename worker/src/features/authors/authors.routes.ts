import * as z from 'zod';
import { namesAField, subject } from '../../http/activity.js';
import { routesOf } from '../../http/route.js';
import { IdParamSchema } from '../../wire/common.schema.js';
import { PageQuerySchema, pageOf } from '../../wire/pagination.schema.js';
import { NameSlugSchema } from '../../wire/slug.js';
import { AuthorSchema, CreateAuthorSchema, UpdateAuthorSchema } from './author.schema.js';

const route = routesOf('authors');
const id = { id: IdParamSchema };
const AuthorAnswer = z.object({ author: AuthorSchema });

/** `/v1/authors`: public reads, verified writes (docs/api.md#sites-and-authors). */
export const authorsRoutes = [
  route({
    method: 'get',
    path: '/v1/authors',
    summary: 'Authors, newest first',
    allow: 'public',
    cache: 'shared',
    query: PageQuerySchema,
    responses: { 200: pageOf(AuthorSchema) },
    handler: async (c, { query, services }) => c.json(await services.authors.list(query.limit, query.cursor)),
  }),
  route({
    method: 'post',
    path: '/v1/authors',
    summary: 'Create an author (slug unique)',
    allow: 'authors.write',
    body: CreateAuthorSchema,
    responses: { 201: AuthorAnswer },
    errors: [409],
    handler: async (c, { body, services }) => {
      const author = await services.authors.create(body);
      c.var.audit('author.create', { ...subject('author', author.id), details: { name: author.name } });
      return c.json({ author }, 201);
    },
  }),
  route({
    method: 'get',
    path: '/v1/authors/{id}',
    summary: 'One author',
    allow: 'public',
    cache: 'shared',
    params: id,
    responses: { 200: AuthorAnswer },
    handler: async (c, { params, services }) => c.json({ author: await services.authors.get(params.id) }),
  }),
  route({
    method: 'get',
    path: '/v1/authors/slug/{slug}',
    summary: 'One author, by its slug',
    allow: 'public',
    cache: 'shared',
    // A slug that cannot exist (not lower-case words joined by hyphens) is a 404, as an unknown one is.
    params: { slug: NameSlugSchema },
    responses: { 200: AuthorAnswer },
    handler: async (c, { params, services }) => c.json({ author: await services.authors.getBySlug(params.slug) }),
  }),
  route({
    method: 'patch',
    path: '/v1/authors/{id}',
    summary: 'Edit an author (slug unique)',
    allow: 'authors.write',
    params: id,
    body: UpdateAuthorSchema,
    responses: { 200: AuthorAnswer },
    errors: [409],
    handler: async (c, { params, body, services }) => {
      const author = await services.authors.update(params.id, body);
      // A body that names no field changed nothing: nothing to log.
      if (namesAField(body))
        c.var.audit('author.update', { ...subject('author', author.id), details: { name: author.name } });
      return c.json({ author });
    },
  }),
  route({
    method: 'delete',
    path: '/v1/authors/{id}',
    summary: 'Delete an author (409 while articles name it)',
    allow: 'authors.write',
    params: id,
    responses: { 204: null },
    errors: [409],
    handler: async (c, { params, services }) => {
      await services.authors.delete(params.id);
      c.var.audit('author.delete', subject('author', params.id));
      return c.body(null, 204);
    },
  }),
];
