import * as z from 'zod';
import { featurePermission } from '../../auth/policy.js';
import { namesAField, subject } from '../../http/activity.js';
import { routesOf } from '../../http/route.js';
import { IdParamSchema } from '../../wire/common.schema.js';
import { PageQuerySchema, pageOf } from '../../wire/pagination.schema.js';
import { NameSlugSchema } from '../../wire/slug.js';
import { CreateTermSchema, TermSchema, UpdateTermSchema } from './glossary.schema.js';

/** Writing the glossary: verified accounts, and API keys with content:write (as tags). */
export const glossaryWrite = featurePermission('glossary.write', 'verified', ['content:write']);

const route = routesOf('glossary');
const id = { id: IdParamSchema };
const TermAnswer = z.object({ term: TermSchema });
/** What the activity log keeps of a term: its name and slug (the definition can be long). */
const logged = ({ name, slug }: { name: string; slug: string }) => ({ name, slug });

/** `/v1/glossary`: public reads for the sites' frontends, verified writes (docs/api.md#glossary). */
export const glossaryRoutes = [
  route({
    method: 'get',
    path: '/v1/glossary',
    summary: 'Glossary terms, newest first',
    allow: 'public',
    cache: 'shared',
    query: PageQuerySchema,
    responses: { 200: pageOf(TermSchema) },
    handler: async (c, { query, services }) => c.json(await services.glossary.list(query.limit, query.cursor)),
  }),
  route({
    method: 'post',
    path: '/v1/glossary',
    summary: 'Add a term (slug made from the name when left out; unique)',
    allow: glossaryWrite,
    body: CreateTermSchema,
    responses: { 201: TermAnswer },
    errors: [409],
    handler: async (c, { body, services }) => {
      const term = await services.glossary.create(body);
      c.var.audit('term.create', { ...subject('term', term.id), details: logged(term) });
      return c.json({ term }, 201);
    },
  }),
  route({
    method: 'get',
    path: '/v1/glossary/{id}',
    summary: 'One term',
    allow: 'public',
    cache: 'shared',
    params: id,
    responses: { 200: TermAnswer },
    handler: async (c, { params, services }) => c.json({ term: await services.glossary.get(params.id) }),
  }),
  route({
    method: 'get',
    path: '/v1/glossary/slug/{slug}',
    summary: 'One term, by its slug',
    allow: 'public',
    cache: 'shared',
    // A slug that cannot exist (not lower-case words joined by hyphens) is a 404, as an unknown one is.
    params: { slug: NameSlugSchema },
    responses: { 200: TermAnswer },
    handler: async (c, { params, services }) => c.json({ term: await services.glossary.getBySlug(params.slug) }),
  }),
  route({
    method: 'patch',
    path: '/v1/glossary/{id}',
    summary: 'Rename a term, change its slug (unique) or its definition',
    allow: glossaryWrite,
    params: id,
    body: UpdateTermSchema,
    responses: { 200: TermAnswer },
    errors: [409],
    handler: async (c, { params, body, services }) => {
      const term = await services.glossary.update(params.id, body);
      // A body that names no field changed nothing: nothing to log.
      if (namesAField(body)) c.var.audit('term.update', { ...subject('term', term.id), details: logged(term) });
      return c.json({ term });
    },
  }),
  route({
    method: 'delete',
    path: '/v1/glossary/{id}',
    summary: 'Delete a term',
    allow: glossaryWrite,
    params: id,
    responses: { 204: null },
    handler: async (c, { params, services }) => {
      await services.glossary.delete(params.id);
      c.var.audit('term.delete', subject('term', params.id));
      return c.body(null, 204);
    },
  }),
];
