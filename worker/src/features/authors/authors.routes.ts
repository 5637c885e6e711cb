import { Hono } from 'hono';
import { PageQuerySchema } from '../../contract/pagination.schema.js';
import { namesAField, subject } from '../../http/activity.js';
import type { AppEnv } from '../../http/env.js';
import { allow } from '../../http/middleware/auth.js';
import { idParam } from '../../http/params.js';
import { validate } from '../../http/validate.js';
import { CreateAuthorSchema, UpdateAuthorSchema } from './author.schema.js';

/** `/v1/authors`: public reads, verified writes (docs/api.md#sites-and-authors). */
export const authorsRoutes = new Hono<AppEnv>()
  .get('/', validate('query', PageQuerySchema), async (c) => {
    const { limit, cursor } = c.req.valid('query');
    return c.json(await c.var.services.authors.list(limit, cursor));
  })
  .get('/:id', async (c) => c.json({ author: await c.var.services.authors.get(idParam(c.req.param('id'))) }))
  .post('/', allow('authors.write'), validate('json', CreateAuthorSchema), async (c) => {
    const author = await c.var.services.authors.create(c.req.valid('json'));
    c.var.audit('author.create', { ...subject('author', author.id), details: { name: author.name } });
    return c.json({ author }, 201);
  })
  .patch('/:id', allow('authors.write'), validate('json', UpdateAuthorSchema), async (c) => {
    const input = c.req.valid('json');
    const author = await c.var.services.authors.update(idParam(c.req.param('id')), input);
    if (namesAField(input))
      c.var.audit('author.update', { ...subject('author', author.id), details: { name: author.name } });
    return c.json({ author });
  })
  .delete('/:id', allow('authors.write'), async (c) => {
    const id = idParam(c.req.param('id'));
    await c.var.services.authors.delete(id);
    c.var.audit('author.delete', subject('author', id));
    return c.body(null, 204);
  });
