import type { MiddlewareHandler } from 'hono';
import * as z from 'zod';
import { DomainError } from '../../core/domain/errors.js';
import { subject } from '../../http/activity.js';
import type { AppEnv, Services } from '../../http/env.js';
import { currentUser } from '../../http/middleware/auth.js';
import { routesOf } from '../../http/route.js';
import {
  AcceptInvitationSchema,
  LoginSchema,
  MeUpdatedSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  RegisterSchema,
  SessionSchema,
  UpdateMeSchema,
  UserSchema,
  VerifySchema,
} from './user.schema.js';
import { toPublicUser } from './user-dto.js';

const route = routesOf('auth');

/** A closed registration is refused before its body is parsed. */
const registrationOpen =
  ({ accounts }: Services): MiddlewareHandler<AppEnv> =>
  async (_c, next) => {
    if (!(await accounts.registrationOpen())) {
      throw new DomainError('registration_closed', 'Registration is closed: ask the owner for an invitation');
    }
    await next();
  };
const UserAnswer = z.object({ user: UserSchema });
const Ok = z.object({ ok: z.literal(true) });

/** Registration, verification, login, password reset, the caller's own account, accepting invitations. */
export const authRoutes = [
  route({
    method: 'get',
    path: '/v1/auth/registration',
    summary: 'Whether registration is open',
    allow: 'public',
    responses: { 200: z.object({ open: z.boolean() }) },
    handler: async (c, { services }) => c.json({ open: await services.accounts.registrationOpen() }),
  }),
  route({
    method: 'post',
    path: '/v1/auth/register',
    summary: 'Register the first account (sends the verification e-mail)',
    allow: 'public',
    rateLimit: 'register',
    before: (services) => [registrationOpen(services)],
    body: RegisterSchema,
    responses: { 201: SessionSchema },
    errors: [403, 409],
    handler: async (c, { body, services }) => {
      const session = await services.accounts.register(body);
      c.var.audit('user.register', {
        actor: { type: 'user', user: session.user },
        ...subject('user', session.user.id),
        details: { email: session.user.email },
      });
      return c.json(session, 201);
    },
  }),
  route({
    method: 'delete',
    path: '/v1/auth/registration',
    summary: 'Cancel one’s unverified registration',
    allow: 'account.self',
    responses: { 204: null },
    handler: async (c, { services }) => {
      const user = currentUser(c);
      await services.accounts.cancelRegistration(user);
      c.var.audit('user.registration.cancel', { ...subject('user', user.id), details: { email: user.email } });
      return c.body(null, 204);
    },
  }),
  route({
    method: 'post',
    path: '/v1/auth/verify',
    summary: 'Verify an account with the e-mailed code',
    allow: 'public',
    rateLimit: 'verification',
    body: VerifySchema,
    responses: { 200: UserAnswer },
    errors: [403],
    handler: async (c, { body, services }) => {
      const user = await services.accounts.verify(body.code);
      c.var.audit('user.verify', {
        actor: { type: 'user', user },
        ...subject('user', user.id),
        details: { role: user.role },
      });
      return c.json({ user });
    },
  }),
  // Each resend is an e-mail: it spends the reset budget, not a free one.
  route({
    method: 'post',
    path: '/v1/auth/verify/resend',
    summary: 'Send a new verification code',
    allow: 'account.self',
    rateLimit: 'passwordReset',
    responses: { 202: null },
    errors: [409],
    handler: async (c, { services }) => {
      const user = currentUser(c);
      await services.accounts.resendVerification(user);
      c.var.audit('user.verify.resend', subject('user', user.id));
      return c.body(null, 202);
    },
  }),
  route({
    method: 'post',
    path: '/v1/auth/login',
    summary: 'Sign in',
    allow: 'public',
    rateLimit: { budget: 'login', refundOnSuccess: true },
    body: LoginSchema,
    responses: { 200: SessionSchema },
    handler: async (c, { body: { email, password }, services }) => {
      try {
        const session = await services.accounts.login(email, password);
        c.var.audit('auth.login', { actor: { type: 'user', user: session.user }, ...subject('user', session.user.id) });
        return c.json(session);
      } catch (err) {
        // Who tried which address from where: what a brute-force review needs.
        if (err instanceof DomainError && err.code === 'unauthorized')
          c.var.audit('auth.login.failed', { details: { email } });
        throw err;
      }
    },
  }),
  route({
    method: 'post',
    path: '/v1/auth/password-reset',
    summary: 'Ask for a reset e-mail (same answer for unknown addresses; 503 for all while mail is down)',
    allow: 'public',
    rateLimit: 'passwordReset',
    body: PasswordResetRequestSchema,
    responses: { 202: Ok },
    handler: async (c, { body: { email }, services, defer }) => {
      await services.passwordReset.request(email, defer);
      c.var.audit('auth.passwordReset.request', { details: { email } });
      return c.json({ ok: true } as const, 202);
    },
  }),
  route({
    method: 'post',
    path: '/v1/auth/password-reset/confirm',
    summary: 'Set a new password with the e-mailed code; ends every session',
    allow: 'public',
    rateLimit: 'passwordReset',
    body: PasswordResetConfirmSchema,
    responses: { 200: Ok },
    handler: async (c, { body: { code, password }, services }) => {
      const userId = await services.passwordReset.confirm(code, password);
      c.var.audit('auth.passwordReset.confirm', {
        actor: { type: 'user', user: { id: userId } },
        ...subject('user', userId),
      });
      return c.json({ ok: true } as const);
    },
  }),
  route({
    method: 'get',
    path: '/v1/auth/me',
    summary: 'The signed-in user',
    allow: 'account.self',
    responses: { 200: UserAnswer },
    handler: (c) => c.json({ user: toPublicUser(currentUser(c)) }),
  }),
  route({
    method: 'patch',
    path: '/v1/auth/me',
    summary:
      'Change one’s display name or password (a new password returns a new token, and ends every earlier session and reset code). A wrong current password spends the login budget, per client and per account: 429 past it',
    allow: 'account.self',
    body: UpdateMeSchema,
    responses: { 200: MeUpdatedSchema },
    errors: [429],
    handler: async (c, { body: input, limits, services }) => {
      const user = currentUser(c);
      const update = () => services.accounts.updateMe(user, input);
      // A password change checks the current password: each try spends the
      // login budget, per client and per account (a stolen session must not
      // guess from many addresses), and a success gives it back.
      const result =
        input.password !== undefined
          ? await limits.attempt(c, 'login', [`account:${user.id}`], update)
          : await update();
      const changed = {
        ...(input.displayName !== undefined && { displayName: input.displayName }),
        password: input.password !== undefined,
      };
      if (input.password !== undefined || input.displayName !== undefined) {
        c.var.audit(input.password !== undefined ? 'user.password.change' : 'user.update', {
          ...subject('user', result.user.id),
          details: changed,
        });
      }
      return c.json(result);
    },
  }),
  route({
    method: 'post',
    path: '/v1/auth/invitation/accept',
    summary: 'Accept an invitation: creates a verified account',
    allow: 'public',
    rateLimit: 'verification',
    body: AcceptInvitationSchema,
    responses: { 201: SessionSchema },
    handler: async (c, { body, services }) => {
      const session = await services.invitations.accept(body);
      c.var.audit('invitation.accept', {
        actor: { type: 'user', user: session.user },
        ...subject('user', session.user.id),
        details: { email: session.user.email, role: session.user.role },
      });
      return c.json(session, 201);
    },
  }),
];
