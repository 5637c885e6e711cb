import { Hono, type MiddlewareHandler } from 'hono';
import { DomainError } from '../../core/domain/errors.js';
import { toPublicUser } from '../../core/shared/dto.js';
import { subject } from '../../http/activity.js';
import { deferFor } from '../../http/defer.js';
import type { AppEnv } from '../../http/env.js';
import { allow, currentUser } from '../../http/middleware/auth.js';
import type { rateLimiting } from '../../http/middleware/rate-limit.js';
import { validate } from '../../http/validate.js';
import type { Defer } from '../../ports/runtime.js';
import {
  AcceptInvitationSchema,
  LoginSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  RegisterSchema,
  UpdateMeSchema,
  VerifySchema,
} from './user.schema.js';

/** A closed registration is refused before its body is parsed. */
const registrationOpen: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!(await c.var.services.accounts.registrationOpen())) {
    throw new DomainError('registration_closed', 'Registration is closed: ask the owner for an invitation');
  }
  await next();
};

/** Registration, verification, login, password reset, the caller's own account, accepting invitations. */
export const authRoutes = (limit: ReturnType<typeof rateLimiting>, fallbackDefer: Defer) =>
  new Hono<AppEnv>()
    .get('/registration', async (c) => c.json({ open: await c.var.services.accounts.registrationOpen() }))
    .post('/register', limit('register'), registrationOpen, validate('json', RegisterSchema), async (c) => {
      const session = await c.var.services.accounts.register(c.req.valid('json'));
      c.var.audit('user.register', {
        actor: { type: 'user', user: session.user },
        ...subject('user', session.user.id),
        details: { email: session.user.email },
      });
      return c.json(session, 201);
    })
    .delete('/registration', allow('account.self'), async (c) => {
      const user = currentUser(c);
      await c.var.services.accounts.cancelRegistration(user);
      c.var.audit('user.registration.cancel', { ...subject('user', user.id), details: { email: user.email } });
      return c.body(null, 204);
    })
    .post('/verify', limit('verification'), validate('json', VerifySchema), async (c) => {
      const user = await c.var.services.accounts.verify(c.req.valid('json').code);
      c.var.audit('user.verify', {
        actor: { type: 'user', user },
        ...subject('user', user.id),
        details: { role: user.role },
      });
      return c.json({ user });
    })
    // Each resend is an e-mail: it spends the reset budget, not a free one.
    .post('/verify/resend', allow('account.self'), limit('passwordReset'), async (c) => {
      const user = currentUser(c);
      await c.var.services.accounts.resendVerification(user);
      c.var.audit('user.verify.resend', subject('user', user.id));
      return c.body(null, 202);
    })
    .post('/login', limit('login', { refundOnSuccess: true }), validate('json', LoginSchema), async (c) => {
      const { email, password } = c.req.valid('json');
      try {
        const session = await c.var.services.accounts.login(email, password);
        c.var.audit('auth.login', { actor: { type: 'user', user: session.user }, ...subject('user', session.user.id) });
        return c.json(session);
      } catch (err) {
        // Who tried which address from where: what a brute-force review needs.
        if (err instanceof DomainError && err.code === 'unauthorized')
          c.var.audit('auth.login.failed', { details: { email } });
        throw err;
      }
    })
    .post('/password-reset', limit('passwordReset'), validate('json', PasswordResetRequestSchema), async (c) => {
      const { email } = c.req.valid('json');
      await c.var.services.passwordReset.request(email, deferFor(c, fallbackDefer));
      c.var.audit('auth.passwordReset.request', { details: { email } });
      return c.json({ ok: true }, 202);
    })
    .post(
      '/password-reset/confirm',
      limit('passwordReset'),
      validate('json', PasswordResetConfirmSchema),
      async (c) => {
        const { code, password } = c.req.valid('json');
        const userId = await c.var.services.passwordReset.confirm(code, password);
        c.var.audit('auth.passwordReset.confirm', {
          actor: { type: 'user', user: { id: userId } },
          ...subject('user', userId),
        });
        return c.json({ ok: true });
      },
    )
    .get('/me', allow('account.self'), (c) => c.json({ user: toPublicUser(currentUser(c)) }))
    .patch('/me', allow('account.self'), validate('json', UpdateMeSchema), async (c) => {
      const input = c.req.valid('json');
      const user = currentUser(c);
      const update = () => c.var.services.accounts.updateMe(user, input);
      // A password change checks the current password: each try spends the
      // login budget, per client and per account (a stolen session must not
      // guess from many addresses), and a success gives it back.
      const result =
        input.password !== undefined ? await limit.attempt(c, 'login', [`account:${user.id}`], update) : await update();
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
    })
    .post('/invitation/accept', limit('verification'), validate('json', AcceptInvitationSchema), async (c) => {
      const session = await c.var.services.invitations.accept(c.req.valid('json'));
      c.var.audit('invitation.accept', {
        actor: { type: 'user', user: session.user },
        ...subject('user', session.user.id),
        details: { email: session.user.email, role: session.user.role },
      });
      return c.json(session, 201);
    });
