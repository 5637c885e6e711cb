import { Hono } from 'hono';
import {
  AcceptInvitationSchema,
  LoginSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  RegisterSchema,
  UpdateMeSchema,
  VerifySchema,
} from '../../contract/user.schema.js';
import { toPublicUser } from '../../core/shared/dto.js';
import type { Defer } from '../../ports/runtime.js';
import { deferFor } from '../defer.js';
import type { AppEnv } from '../env.js';
import { allow, currentUser } from '../middleware/auth.js';
import type { rateLimiting } from '../middleware/rate-limit.js';
import { validate } from '../validate.js';

/** Registration, verification, login, password reset, the caller's own account, accepting invitations. */
export const authRoutes = (limit: ReturnType<typeof rateLimiting>, fallbackDefer: Defer) =>
  new Hono<AppEnv>()
    .get('/registration', async (c) => c.json({ open: await c.var.services.accounts.registrationOpen() }))
    .post('/register', validate('json', RegisterSchema), async (c) =>
      c.json(await c.var.services.accounts.register(c.req.valid('json')), 201),
    )
    .delete('/registration', allow('account.self'), async (c) => {
      await c.var.services.accounts.cancelRegistration(currentUser(c));
      return c.body(null, 204);
    })
    .post('/verify', limit('verification'), validate('json', VerifySchema), async (c) =>
      c.json({ user: await c.var.services.accounts.verify(c.req.valid('json').code) }),
    )
    // Each resend is an e-mail: it spends the reset budget, not a free one.
    .post('/verify/resend', allow('account.self'), limit('passwordReset'), async (c) => {
      await c.var.services.accounts.resendVerification(currentUser(c));
      return c.body(null, 202);
    })
    .post('/login', limit('login', { refundOnSuccess: true }), validate('json', LoginSchema), async (c) => {
      const { email, password } = c.req.valid('json');
      return c.json(await c.var.services.accounts.login(email, password));
    })
    .post('/password-reset', limit('passwordReset'), validate('json', PasswordResetRequestSchema), async (c) => {
      await c.var.services.passwordReset.request(c.req.valid('json').email, deferFor(c, fallbackDefer));
      return c.json({ ok: true }, 202);
    })
    .post('/password-reset/confirm', limit('passwordReset'), validate('json', PasswordResetConfirmSchema), async (c) => {
      const { code, password } = c.req.valid('json');
      await c.var.services.passwordReset.confirm(code, password);
      return c.json({ ok: true });
    })
    .get('/me', allow('account.self'), (c) => c.json({ user: toPublicUser(currentUser(c)) }))
    .patch('/me', allow('account.self'), validate('json', UpdateMeSchema), async (c) =>
      c.json(await c.var.services.accounts.updateMe(currentUser(c), c.req.valid('json'))),
    )
    .post('/invitation/accept', limit('verification'), validate('json', AcceptInvitationSchema), async (c) =>
      c.json(await c.var.services.invitations.accept(c.req.valid('json')), 201),
    );
