import * as z from 'zod';
import { prefersHtml } from '../../http/accept.js';
import { subject } from '../../http/activity.js';
import { described, routesOf } from '../../http/route.js';
import { IdParamSchema } from '../../wire/common.schema.js';
import { ArticleSchema } from '../articles/article.schema.js';
import { previewPage } from './preview-page.js';
import { CreatePreviewSchema, PreviewLinkSchema, PreviewTokenParamSchema } from './previews.schema.js';

const route = routesOf('articles');

/** Preview links: an offline article shown to whoever holds the link, until it expires or is revoked. */
export const previewsRoutes = [
  route({
    method: 'post',
    path: '/v1/articles/{id}/preview',
    summary: 'Make a preview link: anyone holding it reads the article, online or not, until it expires',
    // Whoever shares an offline article must be allowed to read it.
    allow: 'content.readOffline',
    params: { id: IdParamSchema },
    body: CreatePreviewSchema,
    responses: { 201: PreviewLinkSchema },
    handler: async (c, { params, body, services }) => {
      const link = await services.previews.create(params.id, body.expiresInSeconds);
      c.var.audit('article.preview.create', {
        ...subject('article', params.id),
        details: { expiresAt: link.expiresAt },
      });
      c.header('cache-control', 'no-store');
      return c.json(link, 201);
    },
  }),
  route({
    method: 'delete',
    path: '/v1/articles/{id}/preview',
    summary: 'Revoke every preview link of an article',
    allow: 'content.readOffline',
    params: { id: IdParamSchema },
    responses: { 204: null },
    handler: async (c, { params, services }) => {
      await services.previews.revokeAll(params.id);
      c.var.audit('article.preview.revoke', subject('article', params.id));
      return c.body(null, 204);
    },
  }),
  route({
    method: 'get',
    path: '/v1/preview/{token}',
    summary:
      'The article behind a preview link, as a read answers it; a browser (`Accept` preferring `text/html`) gets a page showing its pending draft, if any (never cached, never indexed)',
    allow: 'public',
    params: { token: PreviewTokenParamSchema },
    responses: {
      200: described(
        z.object({ article: ArticleSchema }),
        'The live article as JSON; to an `Accept` preferring `text/html`, a `text/html` page of the article (its pending draft when there is one)',
      ),
    },
    handler: async (c, { params, services, links }) => {
      c.header('cache-control', 'no-store');
      c.header('x-robots-tag', 'noindex');
      // Which of the two answers depends on Accept: no cache may hand one for the other.
      c.header('vary', 'Accept', { append: true });
      if (prefersHtml(c.req.header('accept'))) {
        const page = previewPage(await services.previews.page(params.token, links));
        // The same 200, for another Accept: its declaration describes the page in words (a 200 is JSON or raw, not both).
        return c.body(page, 200, { 'content-type': 'text/html; charset=utf-8' }) as never;
      }
      return c.json({ article: await services.previews.read(params.token, links) });
    },
  }),
];
