import { Hono } from 'hono';
import { PageQuerySchema } from '../../contract/pagination.schema.js';
import { CreateInvitationSchema, UpdateUserSchema } from '../../contract/user.schema.js';
import type { AppEnv } from '../env.js';
import { idParam } from '../params.js';
import { allow, currentUser } from '../middleware/auth.js';
import { validate } from '../validate.js';

/** `/v1/user`: users and invitations, the owner's business (API.md). */
export const usersRoutes = new Hono<AppEnv>()
  .get('/invite', allow('invitations.manage'), validate('query', PageQuerySchema), async (c) => {
    const { limit, cursor } = c.req.valid('query');
    return c.json(await c.var.services.invitations.list(limit, cursor));
  })
  .post('/invite', allow('invitations.manage'), validate('json', CreateInvitationSchema), async (c) =>
    c.json({ invitation: await c.var.services.invitations.create(currentUser(c), c.req.valid('json')) }, 201),
  )
  .delete('/invite/:id', allow('invitations.manage'), async (c) => {
    await c.var.services.invitations.cancel(idParam(c.req.param('id')));
    return c.body(null, 204);
  })
  .post('/invite/:id/renew', allow('invitations.manage'), async (c) =>
    c.json({ invitation: await c.var.services.invitations.renew(currentUser(c), idParam(c.req.param('id'))) }),
  )
  .get('/', allow('users.manage'), validate('query', PageQuerySchema), async (c) => {
    const { limit, cursor } = c.req.valid('query');
    return c.json(await c.var.services.users.list(limit, cursor));
  })
  .get('/:id', allow('users.manage'), async (c) => c.json({ user: await c.var.services.users.get(idParam(c.req.param('id'))) }))
  .patch('/:id', allow('users.manage'), validate('json', UpdateUserSchema), async (c) =>
    c.json({ user: await c.var.services.users.update(currentUser(c), idParam(c.req.param('id')), c.req.valid('json')) }),
  )
  .delete('/:id', allow('users.manage'), async (c) => {
    await c.var.services.users.delete(currentUser(c), idParam(c.req.param('id')));
    return c.body(null, 204);
  });
