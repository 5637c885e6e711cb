import { Hono } from 'hono';
import { LoginSchema, RegisterSchema, VerifySchema } from '../../contract/user.schema.js';
import { toPublicUser } from '../../core/shared/dto.js';
import type { AppEnv } from '../env.js';
import { requireUser } from '../middleware/auth.js';
import { validate } from '../validate.js';

export const authRoutes = new Hono<AppEnv>()
  .get('/registration', async (c) => c.json({ open: await c.var.services.accounts.registrationOpen() }))
  .post('/register', validate('json', RegisterSchema), async (c) =>
    c.json(await c.var.services.accounts.register(c.req.valid('json')), 201),
  )
  .post('/verify', validate('json', VerifySchema), async (c) =>
    c.json({ user: await c.var.services.accounts.verify(c.req.valid('json').code) }),
  )
  .post('/verify/resend', requireUser, async (c) => {
    const actor = c.var.actor;
    if (actor.type === 'user') await c.var.services.accounts.resendVerification(actor.user);
    return c.body(null, 202);
  })
  .post('/login', validate('json', LoginSchema), async (c) => {
    const { email, password } = c.req.valid('json');
    return c.json(await c.var.services.accounts.login(email, password));
  })
  .get('/me', requireUser, (c) => {
    const actor = c.var.actor;
    return c.json({ user: actor.type === 'user' ? toPublicUser(actor.user) : null });
  });
