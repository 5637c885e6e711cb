import { Hono } from 'hono';
import { CreateAuthorSchema, UpdateAuthorSchema } from '../../contract/author.schema.js';
import { PageQuerySchema } from '../../contract/pagination.schema.js';
import type { AppEnv } from '../env.js';
import { allow } from '../middleware/auth.js';
import { idParam } from '../params.js';
import { validate } from '../validate.js';

/** `/v1/authors`: public reads, verified writes (API.md "Sites and authors"). */
export const authorsRoutes = new Hono<AppEnv>()
  .get('/', validate('query', PageQuerySchema), async (c) => {
    const { limit, cursor } = c.req.valid('query');
    return c.json(await c.var.services.authors.list(limit, cursor));
  })
  .get('/:id', async (c) => c.json({ author: await c.var.services.authors.get(idParam(c.req.param('id'))) }))
  .post('/', allow('authors.write'), validate('json', CreateAuthorSchema), async (c) =>
    c.json({ author: await c.var.services.authors.create(c.req.valid('json')) }, 201),
  )
  .patch('/:id', allow('authors.write'), validate('json', UpdateAuthorSchema), async (c) =>
    c.json({ author: await c.var.services.authors.update(idParam(c.req.param('id')), c.req.valid('json')) }),
  )
  .delete('/:id', allow('authors.write'), async (c) => {
    await c.var.services.authors.delete(idParam(c.req.param('id')));
    return c.body(null, 204);
  });
