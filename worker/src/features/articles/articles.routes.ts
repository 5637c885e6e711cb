import type { Context } from 'hono';
import * as z from 'zod';
import { IdParamSchema } from '../../contract/common.schema.js';
import { PageQuerySchema, pageOf } from '../../contract/pagination.schema.js';
import { subject } from '../../http/activity.js';
import type { AppEnv } from '../../http/env.js';
import { described, routesOf } from '../../http/route.js';
import { ImageSchema } from '../media/media.schema.js';
import { articleEventData } from '../webhooks/webhook-events.js';
import {
  type ArticleDto,
  ArticleSchema,
  CreateArticleSchema,
  ListArticlesQuerySchema,
  UpdateArticleSchema,
} from './article.schema.js';
import { SeoInputSchema, SeoSchema, toSeo } from './seo.schema.js';

const route = routesOf('articles');
const id = { id: IdParamSchema };
const ArticleAnswer = z.object({ article: ArticleSchema });
const SeoAnswer = z.object({ seo: SeoSchema });

/**
 * What an article write answers: 200 with `body` when the caller may read the
 * article as it now stands, else 204 and nothing. Writing is not reading: a
 * `content:write` key or an unverified registrant edits, publishes and
 * unpublishes offline articles without seeing them.
 */
function answer<T extends object>(c: Context<AppEnv>, article: ArticleDto, body: T) {
  return c.var.services.articles.readableBy(c.var.actor, article) ? c.json(body) : c.body(null, 204);
}
const Unreadable = described(
  null,
  'Done, but the caller may not read the article as it now stands (offline, and a caller without the right to offline articles: a content:write key without content:read, an unverified account), so nothing of it is shown',
);

/** `/v1/articles`: the public sees online articles; writers create, edit, publish and delete. */
export const articlesRoutes = [
  route({
    method: 'get',
    path: '/v1/articles',
    summary: 'Articles, newest first (the public sees online ones)',
    allow: 'public',
    query: ListArticlesQuerySchema,
    responses: { 200: pageOf(ArticleSchema) },
    handler: async (c, { query, services }) => c.json(await services.articles.list(c.var.actor, query)),
  }),
  route({
    method: 'post',
    path: '/v1/articles',
    summary: 'Create an article (offline)',
    allow: 'content.write',
    body: CreateArticleSchema,
    responses: { 201: ArticleAnswer },
    handler: async (c, { body, services, defer }) => {
      const article = await services.articles.create(body);
      c.var.audit('article.create', { ...subject('article', article.id), details: { title: article.title } });
      await services.webhooks.emit('article.created', articleEventData(article), defer);
      return c.json({ article }, 201);
    },
  }),
  route({
    method: 'get',
    path: '/v1/articles/{id}',
    summary: 'One article (offline ones for verified users only)',
    allow: 'public',
    params: id,
    responses: { 200: ArticleAnswer },
    handler: async (c, { params, services }) =>
      c.json({ article: await services.articles.get(c.var.actor, params.id) }),
  }),
  route({
    method: 'patch',
    path: '/v1/articles/{id}',
    summary: 'Edit an article (a body that names no field changes nothing, `updatedAt` included)',
    allow: 'content.write',
    params: id,
    body: UpdateArticleSchema,
    responses: { 200: ArticleAnswer, 204: Unreadable },
    handler: async (c, { params, body: input, services, defer }) => {
      const { article, changed } = await services.articles.update(params.id, input);
      if (changed) {
        c.var.audit('article.update', {
          ...subject('article', article.id),
          details: { title: article.title, fields: Object.keys(input) },
        });
        await services.webhooks.emit('article.updated', articleEventData(article), defer);
      }
      return answer(c, article, { article });
    },
  }),
  route({
    method: 'post',
    path: '/v1/articles/{id}/publish',
    summary: 'Put online',
    allow: 'content.write',
    params: id,
    responses: { 200: ArticleAnswer, 204: Unreadable },
    handler: async (c, { params, services, defer }) => {
      const article = await services.articles.setStatus(params.id, 'online');
      c.var.audit('article.publish', { ...subject('article', article.id), details: { title: article.title } });
      await services.webhooks.emit('article.published', articleEventData(article), defer);
      return answer(c, article, { article });
    },
  }),
  route({
    method: 'post',
    path: '/v1/articles/{id}/unpublish',
    summary: 'Take offline',
    allow: 'content.write',
    params: id,
    responses: { 200: ArticleAnswer, 204: Unreadable },
    handler: async (c, { params, services, defer }) => {
      const article = await services.articles.setStatus(params.id, 'offline');
      c.var.audit('article.unpublish', { ...subject('article', article.id), details: { title: article.title } });
      await services.webhooks.emit('article.unpublished', articleEventData(article), defer);
      return answer(c, article, { article });
    },
  }),
  route({
    method: 'delete',
    path: '/v1/articles/{id}',
    summary: 'Delete an article and its images',
    allow: 'content.write',
    params: id,
    responses: { 204: null },
    handler: async (c, { params, services, defer }) => {
      await services.articles.delete(params.id);
      c.var.audit('article.delete', subject('article', params.id));
      await services.webhooks.emit('article.deleted', { id: params.id }, defer);
      return c.body(null, 204);
    },
  }),
  route({
    method: 'get',
    path: '/v1/articles/{id}/seo',
    summary: 'An article’s SEO data (same visibility as the article)',
    allow: 'public',
    params: id,
    responses: { 200: SeoAnswer },
    handler: async (c, { params, services }) =>
      c.json({ seo: (await services.articles.get(c.var.actor, params.id)).seo }),
  }),
  route({
    method: 'put',
    path: '/v1/articles/{id}/seo',
    summary: 'Replace an article’s SEO data (fields left out are cleared)',
    allow: 'content.write',
    params: id,
    body: SeoInputSchema,
    responses: { 200: SeoAnswer, 204: Unreadable },
    handler: async (c, { params, body, services, defer }) => {
      const article = await services.articles.setSeo(params.id, toSeo(body));
      c.var.audit('article.seo', { ...subject('article', article.id), details: { noindex: article.seo.noindex } });
      await services.webhooks.emit('article.updated', articleEventData(article), defer);
      return answer(c, article, { seo: article.seo });
    },
  }),
  route({
    method: 'get',
    path: '/v1/articles/{id}/images',
    summary: 'An article’s images',
    allow: 'public',
    params: id,
    query: PageQuerySchema,
    responses: { 200: pageOf(ImageSchema) },
    handler: async (c, { params, query, services }) =>
      c.json(await services.articles.listImages(c.var.actor, params.id, query.limit, query.cursor)),
  }),
];
