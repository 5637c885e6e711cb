import { Hono } from 'hono';
import {
  CreateArticleSchema,
  ListArticlesQuerySchema,
  UpdateArticleSchema,
} from '../../contract/article.schema.js';
import { PageQuerySchema } from '../../contract/pagination.schema.js';
import type { AppEnv } from '../env.js';
import { idParam } from '../params.js';
import { allow } from '../middleware/auth.js';
import { validate } from '../validate.js';
import { uploadLimit, readUploadedFile } from './upload.js';


export const articlesRoutes = (maxUploadBytes: number) =>
  new Hono<AppEnv>()
    .get('/', validate('query', ListArticlesQuerySchema), async (c) =>
      c.json(await c.var.services.articles.list(c.var.actor, c.req.valid('query'))),
    )
    .post('/', allow('content.write'), validate('json', CreateArticleSchema), async (c) =>
      c.json({ article: await c.var.services.articles.create(c.req.valid('json')) }, 201),
    )
    .get('/:id', async (c) =>
      c.json({ article: await c.var.services.articles.get(c.var.actor, idParam(c.req.param('id'))) }),
    )
    .patch('/:id', allow('content.write'), validate('json', UpdateArticleSchema), async (c) =>
      c.json({ article: await c.var.services.articles.update(idParam(c.req.param('id')), c.req.valid('json')) }),
    )
    .post('/:id/publish', allow('content.write'), async (c) =>
      c.json({ article: await c.var.services.articles.setStatus(idParam(c.req.param('id')), 'online') }),
    )
    .post('/:id/unpublish', allow('content.write'), async (c) =>
      c.json({ article: await c.var.services.articles.setStatus(idParam(c.req.param('id')), 'offline') }),
    )
    .delete('/:id', allow('content.write'), async (c) => {
      await c.var.services.articles.delete(idParam(c.req.param('id')));
      return c.body(null, 204);
    })
    .get('/:id/images', validate('query', PageQuerySchema), async (c) => {
      const { limit, cursor } = c.req.valid('query');
      return c.json(await c.var.services.articles.listImages(c.var.actor, idParam(c.req.param('id')), limit, cursor));
    })
    .post(
      '/:id/images',
      allow('content.write'),
      // 404 for an unknown article before a byte of the upload is read.
      async (c, next) => {
        await c.var.services.articles.existing(idParam(c.req.param('id')));
        return next();
      },
      uploadLimit(maxUploadBytes),
      async (c) => {
        const bytes = await readUploadedFile(c, maxUploadBytes);
        const image = await c.var.services.images.upload(idParam(c.req.param('id')), bytes);
        return c.json({ image }, 201);
      },
    );
