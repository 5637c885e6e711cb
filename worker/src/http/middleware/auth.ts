import type { MiddlewareHandler } from 'hono';
import { ANONYMOUS } from '../../core/accounts/actor.js';
import { DomainError } from '../../core/domain/errors.js';
import type { AppEnv } from '../env.js';

// Far above any token we sign; refusing early keeps garbage cheap.
const MAX_TOKEN_LENGTH = 4096;

const unauthorized = () => new DomainError('unauthorized', 'Missing, invalid or expired token');

/**
 * Sets the actor for every /v1 request. No header: anonymous. A header that
 * does not hold a valid token of ours: 401, even on public routes, so that a
 * client learns its session ended instead of silently seeing less.
 */
export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header('authorization');
  if (header === undefined) {
    c.set('actor', ANONYMOUS);
    return next();
  }
  const match = /^Bearer ([^\s]+)$/i.exec(header);
  if (!match || match[1]!.length > MAX_TOKEN_LENGTH) throw unauthorized();
  const user = await c.var.services.accounts.authenticate(match[1]!);
  if (!user) throw unauthorized();
  c.set('actor', { type: 'user', user });
  return next();
};

/** Any session, verified or not. */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.var.actor.type !== 'user') throw unauthorized();
  return next();
};

/** A verified account. Unverified registrants get 403: they are known, just not allowed. */
export const requireVerified: MiddlewareHandler<AppEnv> = async (c, next) => {
  const actor = c.var.actor;
  if (actor.type !== 'user') throw unauthorized();
  if (!actor.user.verified) throw new DomainError('forbidden', 'Verify your e-mail address first');
  return next();
};
