import { Hono } from 'hono';
import { PageQuerySchema } from '../../contract/pagination.schema.js';
import { namesAField, subject } from '../../http/activity.js';
import type { AppEnv } from '../../http/env.js';
import { allow, currentUser } from '../../http/middleware/auth.js';
import { idParam } from '../../http/params.js';
import { validate } from '../../http/validate.js';
import { CreateInvitationSchema, UpdateUserSchema } from './user.schema.js';

/** `/v1/user`: users and invitations, the owner's business (docs/api.md). */
export const usersRoutes = new Hono<AppEnv>()
  .get('/invite', allow('invitations.manage'), validate('query', PageQuerySchema), async (c) => {
    const { limit, cursor } = c.req.valid('query');
    return c.json(await c.var.services.invitations.list(limit, cursor));
  })
  .post('/invite', allow('invitations.manage'), validate('json', CreateInvitationSchema), async (c) => {
    const invitation = await c.var.services.invitations.create(currentUser(c), c.req.valid('json'));
    c.var.audit('invitation.create', {
      ...subject('invitation', invitation.id),
      details: { email: invitation.email, role: invitation.role },
    });
    return c.json({ invitation }, 201);
  })
  .delete('/invite/:id', allow('invitations.manage'), async (c) => {
    const id = idParam(c.req.param('id'));
    await c.var.services.invitations.cancel(id);
    c.var.audit('invitation.cancel', subject('invitation', id));
    return c.body(null, 204);
  })
  .post('/invite/:id/renew', allow('invitations.manage'), async (c) => {
    const invitation = await c.var.services.invitations.renew(currentUser(c), idParam(c.req.param('id')));
    c.var.audit('invitation.renew', { ...subject('invitation', invitation.id), details: { email: invitation.email } });
    return c.json({ invitation });
  })
  .get('/', allow('users.manage'), validate('query', PageQuerySchema), async (c) => {
    const { limit, cursor } = c.req.valid('query');
    return c.json(await c.var.services.users.list(limit, cursor));
  })
  .get('/:id', allow('users.manage'), async (c) =>
    c.json({ user: await c.var.services.users.get(idParam(c.req.param('id'))) }),
  )
  .patch('/:id', allow('users.manage'), validate('json', UpdateUserSchema), async (c) => {
    const input = c.req.valid('json');
    const user = await c.var.services.users.update(currentUser(c), idParam(c.req.param('id')), input);
    // A role change (ownership transfer included) is what the log is for.
    if (namesAField(input)) {
      c.var.audit(input.role === undefined ? 'user.update' : 'user.role', {
        ...subject('user', user.id),
        details: { ...input, role: user.role },
      });
    }
    return c.json({ user });
  })
  .delete('/:id', allow('users.manage'), async (c) => {
    const id = idParam(c.req.param('id'));
    await c.var.services.users.delete(currentUser(c), id);
    c.var.audit('user.delete', subject('user', id));
    return c.body(null, 204);
  });
