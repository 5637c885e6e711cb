import type { Context } from 'hono';
import * as z from 'zod';
import { canReadOffline, decide } from '../../auth/policy.js';
import { parseIfMatch } from '../../core/shared/entity-tags.js';
import type { AppEnv, Services } from '../../http/env.js';
import { described, routesOf } from '../../http/route.js';
import { IdParamSchema } from '../../wire/common.schema.js';
import type { LinkBase } from '../../wire/links.js';
import { PageQuerySchema, pageOf } from '../../wire/pagination.schema.js';
import { ArticleSlugSchema } from '../../wire/slug.js';
import { ImageSchema } from '../media/media.schema.js';
import {
  ArticleBySlugQuerySchema,
  ArticleConflictSchema,
  type ArticleDto,
  ArticleListItemFieldsSchema,
  ArticleListItemSchema,
  ArticleSchema,
  CreateArticleSchema,
  ListArticlesQuerySchema,
  ReadArticleQuerySchema,
  UpdateArticleSchema,
} from './article.schema.js';
import { articleETag, type Precondition } from './articles.service.js';
import { relativeImageUrls } from './body-images.js';
import { SeoInputSchema, SeoSchema, toSeo } from './seo.schema.js';

const route = routesOf('articles');
const id = { id: IdParamSchema };
const ArticleAnswer = z.object({ article: ArticleSchema });
/** A page of the list: full items, or with `fields` the fields named; `total` counts every match. */
const ArticlePage = pageOf(z.union([ArticleListItemSchema, ArticleListItemFieldsSchema])).extend({
  total: z.number().int().min(0).meta({ description: 'How many articles match the filters, on every page' }),
});
const SeoAnswer = z.object({ seo: SeoSchema });
/** Verified users and `content:read` keys also see offline articles: their answers are private. */
const cache = { privateFor: 'content.readOffline' } as const;

/**
 * What an article write answers: 200 with `body` when the caller may read the
 * article as it now stands, else 204 and nothing. Writing is not reading: a
 * `content:write` key or an unverified registrant edits, publishes and
 * unpublishes offline articles without seeing them.
 */
function answer<T extends object>(c: Context<AppEnv>, services: Services, article: ArticleDto, body: T) {
  // The new version, either way: the next conditional write names it.
  c.header('ETag', articleETag(article.version));
  return services.articles.readableBy(c.var.actor, article) ? c.json(body) : c.body(null, 204);
}

/** The caller's If-Match (docs/api.md#optimistic-concurrency); none: the write is unconditional. */
const precondition = (c: Context<AppEnv>, links: LinkBase): Precondition => ({
  actor: c.var.actor,
  ifMatch: parseIfMatch(c.req.header('if-match')),
  links,
});
/** A body as stored: our image URLs written with this CMS's origin (PUBLIC_URL or the request's) made relative. */
const storedBody = (c: Context<AppEnv>, links: LinkBase, body: string) =>
  relativeImageUrls(body, [links.origin, new URL(c.req.url).origin]);

const Stale = described(
  ArticleConflictSchema,
  'If-Match names no current version: nothing was written. `ETag` and `version` give the current version, and `article` the article as it now stands when the caller may read it',
);
const Unreadable = described(
  null,
  'Done, but the caller may not read the article as it now stands (offline, and a caller without the right to offline articles: a content:write key without content:read, an unverified account), so nothing of it is shown',
);

/** `/v1/articles`: the public sees online articles; writers create, edit, publish and delete. */
export const articlesRoutes = [
  route({
    method: 'get',
    path: '/v1/articles',
    summary:
      'Articles, newest first unless `sort`/`order` say otherwise; search with `q`, filter by status, site, tags, author and publication time (the public sees online ones); pages by `cursor` or `page`, with `total`',
    allow: 'public',
    cache,
    query: ListArticlesQuerySchema,
    responses: { 200: ArticlePage },
    handler: async (c, { query, services, links }) =>
      c.json(await services.articles.list(c.get('actor'), query, links)),
  }),
  route({
    method: 'post',
    path: '/v1/articles',
    summary: 'Create an article (offline)',
    allow: 'content.write',
    body: CreateArticleSchema,
    responses: { 201: ArticleAnswer },
    etag: 'read',
    idempotent: true,
    // The slug is taken in the article's site.
    errors: [409],
    handler: async (c, { body, services, links }) => {
      const headers = (a: ArticleDto) => ({ ETag: articleETag(a.version) });
      // The answer is kept for an Idempotency-Key in the create's own transaction.
      const keep = (a: ArticleDto) =>
        c.var.keepAnswer({ status: 201, headers: headers(a), body: JSON.stringify({ article: a }) });
      const input = { ...body, body: storedBody(c, links, body.body) };
      const article = await services.articles.create(input, links, c.var.origin(), keep);
      return c.json({ article }, 201, headers(article));
    },
  }),
  route({
    method: 'get',
    path: '/v1/articles/slug/{slug}',
    summary:
      'The article with this slug, in the site `siteId` or, without it, in any site (offline ones for verified users only)',
    allow: 'public',
    cache,
    params: { slug: ArticleSlugSchema },
    query: ArticleBySlugQuerySchema,
    responses: { 200: ArticleAnswer },
    handler: async (c, { params, query, services, links }) =>
      c.json({
        article: await services.articles.getBySlug(c.var.actor, params.slug, query.siteId, links, query.include),
      }),
  }),
  route({
    method: 'get',
    path: '/v1/articles/{id}',
    summary: 'One article (offline ones for verified users only)',
    allow: 'public',
    cache,
    params: id,
    query: ReadArticleQuerySchema,
    responses: { 200: ArticleAnswer },
    etag: 'read',
    handler: async (c, { params, query, services, links }) => {
      const actor = c.get('actor');
      const article = await services.articles.get(actor, params.id, links, query.include);
      // For editors, whose answer is their own (they may read offline
      // articles, so no shared cache keeps it): the version their next
      // conditional write names. Handed to c.json so a caching layer keeps it
      // rather than putting a digest of the body in its place. Other callers'
      // answers are shared, and a version does not change when an image is
      // added, so they keep a validator of the bytes; so does an answer with
      // `include`, which holds other articles and authors a version does not follow.
      if (decide(actor, 'content.write') === 'allow' && canReadOffline(actor) && query.include === undefined) {
        return c.json({ article }, 200, { ETag: articleETag(article.version) });
      }
      return c.json({ article });
    },
  }),
  route({
    method: 'patch',
    path: '/v1/articles/{id}',
    summary: 'Edit an article (a body that names no field changes nothing, `updatedAt` included)',
    allow: 'content.write',
    params: id,
    body: UpdateArticleSchema,
    responses: { 200: ArticleAnswer, 204: Unreadable, 412: Stale },
    etag: 'write',
    // The slug is taken in the article's (new) site.
    errors: [409],
    handler: async (c, { params, body: input, services, links }) => {
      const { seo, ...fields } = input;
      const { article } = await services.articles.update(
        params.id,
        {
          ...fields,
          ...(fields.body !== undefined && { body: storedBody(c, links, fields.body) }),
          ...(seo !== undefined && { seo: toSeo(seo) }),
        },
        links,
        c.var.origin(),
        precondition(c, links),
      );
      return answer(c, services, article, { article });
    },
  }),
  route({
    method: 'post',
    path: '/v1/articles/{id}/publish',
    summary: 'Put online',
    allow: 'content.write',
    params: id,
    responses: { 200: ArticleAnswer, 204: Unreadable, 412: Stale },
    etag: 'write',
    handler: async (c, { params, services, links }) => {
      const article = await services.articles.setStatus(
        params.id,
        'online',
        links,
        c.var.origin(),
        precondition(c, links),
      );
      return answer(c, services, article, { article });
    },
  }),
  route({
    method: 'post',
    path: '/v1/articles/{id}/unpublish',
    summary: 'Take offline',
    allow: 'content.write',
    params: id,
    responses: { 200: ArticleAnswer, 204: Unreadable, 412: Stale },
    etag: 'write',
    handler: async (c, { params, services, links }) => {
      const article = await services.articles.setStatus(
        params.id,
        'offline',
        links,
        c.var.origin(),
        precondition(c, links),
      );
      return answer(c, services, article, { article });
    },
  }),
  route({
    method: 'delete',
    path: '/v1/articles/{id}',
    summary: 'Delete an article and its images',
    allow: 'content.write',
    params: id,
    responses: { 204: null, 412: Stale },
    etag: 'write',
    handler: async (c, { params, services, links }) => {
      await services.articles.delete(params.id, c.var.origin(), precondition(c, links));
      return c.body(null, 204);
    },
  }),
  route({
    method: 'get',
    path: '/v1/articles/{id}/seo',
    summary: 'An article’s SEO data (same visibility as the article)',
    allow: 'public',
    cache,
    params: id,
    responses: { 200: SeoAnswer },
    handler: async (c, { params, services }) =>
      c.json({ seo: (await services.articles.visible(c.var.actor, params.id)).seo }),
  }),
  route({
    method: 'put',
    path: '/v1/articles/{id}/seo',
    summary: 'Replace an article’s SEO data (fields left out are cleared)',
    allow: 'content.write',
    params: id,
    body: SeoInputSchema,
    responses: { 200: SeoAnswer, 204: Unreadable, 412: Stale },
    etag: 'write',
    handler: async (c, { params, body, services, links }) => {
      const article = await services.articles.setSeo(
        params.id,
        toSeo(body),
        links,
        c.var.origin(),
        precondition(c, links),
      );
      return answer(c, services, article, { seo: article.seo });
    },
  }),
  route({
    method: 'get',
    path: '/v1/articles/{id}/images',
    summary: 'An article’s images',
    allow: 'public',
    cache,
    params: id,
    query: PageQuerySchema,
    responses: { 200: pageOf(ImageSchema) },
    handler: async (c, { params, query, services, links }) =>
      c.json(await services.articles.listImages(c.var.actor, params.id, query, links)),
  }),
];
