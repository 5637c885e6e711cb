import * as z from 'zod';
import { namesAField, subject } from '../../http/activity.js';
import { currentUser } from '../../http/middleware/auth.js';
import { routesOf } from '../../http/route.js';
import { IdParamSchema } from '../../wire/common.schema.js';
import { PageQuerySchema, pageOf } from '../../wire/pagination.schema.js';
import { CreateInvitationSchema, InvitationSchema, UpdateUserSchema, UserSchema } from './user.schema.js';

const route = routesOf('users');
const id = { id: IdParamSchema };
const UserAnswer = z.object({ user: UserSchema });
const InvitationAnswer = z.object({ invitation: InvitationSchema });

/** `/v1/user`: users and invitations, the owner's business (docs/api.md). The invitations come first: `invite` is no id. */
export const usersRoutes = [
  route({
    method: 'get',
    path: '/v1/user/invite',
    summary: 'Pending invitations',
    allow: 'invitations.manage',
    query: PageQuerySchema,
    responses: { 200: pageOf(InvitationSchema) },
    handler: async (c, { query, services }) => c.json(await services.invitations.list(query.limit, query.cursor)),
  }),
  route({
    method: 'post',
    path: '/v1/user/invite',
    summary: 'Invite by e-mail (valid 3 days)',
    allow: 'invitations.manage',
    body: CreateInvitationSchema,
    responses: { 201: InvitationAnswer },
    errors: [409],
    handler: async (c, { body, services }) => {
      const invitation = await services.invitations.create(currentUser(c), body);
      c.var.audit('invitation.create', {
        ...subject('invitation', invitation.id),
        details: { email: invitation.email, role: invitation.role },
      });
      return c.json({ invitation }, 201);
    },
  }),
  route({
    method: 'delete',
    path: '/v1/user/invite/{id}',
    summary: 'Cancel an invitation',
    allow: 'invitations.manage',
    params: id,
    responses: { 204: null },
    handler: async (c, { params, services }) => {
      await services.invitations.cancel(params.id);
      c.var.audit('invitation.cancel', subject('invitation', params.id));
      return c.body(null, 204);
    },
  }),
  route({
    method: 'post',
    path: '/v1/user/invite/{id}/renew',
    summary: 'New code, 3 more days, e-mail sent again',
    allow: 'invitations.manage',
    params: id,
    responses: { 200: InvitationAnswer },
    handler: async (c, { params, services }) => {
      const invitation = await services.invitations.renew(currentUser(c), params.id);
      c.var.audit('invitation.renew', {
        ...subject('invitation', invitation.id),
        details: { email: invitation.email },
      });
      return c.json({ invitation });
    },
  }),
  route({
    method: 'get',
    path: '/v1/user',
    summary: 'Users',
    allow: 'users.manage',
    query: PageQuerySchema,
    responses: { 200: pageOf(UserSchema) },
    handler: async (c, { query, services }) => c.json(await services.users.list(query.limit, query.cursor)),
  }),
  route({
    method: 'get',
    path: '/v1/user/{id}',
    summary: 'One user',
    allow: 'users.manage',
    params: id,
    responses: { 200: UserAnswer },
    handler: async (c, { params, services }) => c.json({ user: await services.users.get(params.id) }),
  }),
  route({
    method: 'patch',
    path: '/v1/user/{id}',
    summary: 'Edit a user; role "owner" transfers ownership',
    allow: 'users.manage',
    params: id,
    body: UpdateUserSchema,
    responses: { 200: UserAnswer },
    errors: [409],
    handler: async (c, { params, body: input, services }) => {
      const user = await services.users.update(currentUser(c), params.id, input);
      // A role change (ownership transfer included) is what the log is for.
      if (namesAField(input)) {
        c.var.audit(input.role === undefined ? 'user.update' : 'user.role', {
          ...subject('user', user.id),
          details: { ...input, role: user.role },
        });
      }
      return c.json({ user });
    },
  }),
  route({
    method: 'delete',
    path: '/v1/user/{id}',
    summary: 'Delete a user (not the owner)',
    allow: 'users.manage',
    params: id,
    responses: { 204: null },
    errors: [409],
    handler: async (c, { params, services }) => {
      await services.users.delete(currentUser(c), params.id);
      c.var.audit('user.delete', subject('user', params.id));
      return c.body(null, 204);
    },
  }),
];
