import { type Context, Hono } from 'hono';
import { PageQuerySchema } from '../../contract/pagination.schema.js';
import { subject } from '../../http/activity.js';
import type { AppEnv } from '../../http/env.js';
import { allow } from '../../http/middleware/auth.js';
import { idParam } from '../../http/params.js';
import { validate } from '../../http/validate.js';
import { readUploadedFile, uploadLimit } from '../media/upload.http.js';
import {
  type ArticleDto,
  CreateArticleSchema,
  ListArticlesQuerySchema,
  UpdateArticleSchema,
} from './article.schema.js';
import { SeoInputSchema, toSeo } from './seo.schema.js';

/**
 * What an article write answers: 200 with `body` when the caller may read the
 * article as it now stands, else 204 and nothing. Writing is not reading: a
 * `content:write` key or an unverified registrant edits, publishes and
 * unpublishes offline articles without seeing them.
 */
function answer(c: Context<AppEnv>, article: ArticleDto, body: Record<string, unknown>) {
  return c.var.services.articles.readableBy(c.var.actor, article) ? c.json(body) : c.body(null, 204);
}

export const articlesRoutes = (maxUploadBytes: number) =>
  new Hono<AppEnv>()
    .get('/', validate('query', ListArticlesQuerySchema), async (c) =>
      c.json(await c.var.services.articles.list(c.var.actor, c.req.valid('query'))),
    )
    .post('/', allow('content.write'), validate('json', CreateArticleSchema), async (c) => {
      const article = await c.var.services.articles.create(c.req.valid('json'));
      c.var.audit('article.create', { ...subject('article', article.id), details: { title: article.title } });
      return c.json({ article }, 201);
    })
    .get('/:id', async (c) =>
      c.json({ article: await c.var.services.articles.get(c.var.actor, idParam(c.req.param('id'))) }),
    )
    .patch('/:id', allow('content.write'), validate('json', UpdateArticleSchema), async (c) => {
      const input = c.req.valid('json');
      const { article, changed } = await c.var.services.articles.update(idParam(c.req.param('id')), input);
      if (changed) {
        c.var.audit('article.update', {
          ...subject('article', article.id),
          details: { title: article.title, fields: Object.keys(input) },
        });
      }
      return answer(c, article, { article });
    })
    .post('/:id/publish', allow('content.write'), async (c) => {
      const article = await c.var.services.articles.setStatus(idParam(c.req.param('id')), 'online');
      c.var.audit('article.publish', { ...subject('article', article.id), details: { title: article.title } });
      return answer(c, article, { article });
    })
    .post('/:id/unpublish', allow('content.write'), async (c) => {
      const article = await c.var.services.articles.setStatus(idParam(c.req.param('id')), 'offline');
      c.var.audit('article.unpublish', { ...subject('article', article.id), details: { title: article.title } });
      return answer(c, article, { article });
    })
    .delete('/:id', allow('content.write'), async (c) => {
      const id = idParam(c.req.param('id'));
      await c.var.services.articles.delete(id);
      c.var.audit('article.delete', subject('article', id));
      return c.body(null, 204);
    })
    .get('/:id/structured-data', async (c) =>
      c.json(await c.var.services.syndication.structuredData(c.var.actor, idParam(c.req.param('id')))),
    )
    .get('/:id/seo', async (c) =>
      c.json({ seo: (await c.var.services.articles.get(c.var.actor, idParam(c.req.param('id')))).seo }),
    )
    .put('/:id/seo', allow('content.write'), validate('json', SeoInputSchema), async (c) => {
      const article = await c.var.services.articles.setSeo(idParam(c.req.param('id')), toSeo(c.req.valid('json')));
      c.var.audit('article.seo', { ...subject('article', article.id), details: { noindex: article.seo.noindex } });
      return answer(c, article, { seo: article.seo });
    })
    .get('/:id/images', validate('query', PageQuerySchema), async (c) => {
      const { limit, cursor } = c.req.valid('query');
      return c.json(await c.var.services.articles.listImages(c.var.actor, idParam(c.req.param('id')), limit, cursor));
    })
    .post(
      '/:id/images',
      allow('media.upload'),
      // 404 for an unknown article before a byte of the upload is read.
      async (c, next) => {
        await c.var.services.articles.existing(idParam(c.req.param('id')));
        return next();
      },
      uploadLimit(maxUploadBytes),
      async (c) => {
        const bytes = await readUploadedFile(c, maxUploadBytes);
        const image = await c.var.services.images.upload(idParam(c.req.param('id')), bytes);
        c.var.audit('image.upload', {
          ...subject('image', image.id),
          details: { articleId: image.articleId, filename: image.filename, bytes: image.bytes },
        });
        return c.json({ image }, 201);
      },
    );
