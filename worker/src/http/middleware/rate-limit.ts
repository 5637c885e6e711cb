import type { MiddlewareHandler } from 'hono';
import type { Settings } from '../../config/settings.js';
import { DomainError } from '../../core/domain/errors.js';
import type { RateRule } from '../../ports/rate-limiter.js';
import { resolveClient } from '../client-address.js';
import type { AppDeps } from '../deps.js';
import type { AppEnv } from '../env.js';

type RateLimitDeps = Pick<AppDeps, 'rateLimiter' | 'settings' | 'logger' | 'peerAddress'>;

export type RateBudget = keyof Settings['rateLimits'];

/**
 * Takes one unit of the client's budget before the handler runs, so 50
 * concurrent attempts cannot get more than the limit to a password check.
 * A limiter that fails closes the door (503), it never opens it.
 * `refundOnSuccess`: only failures count (a login that works gives its unit back).
 * An answer of 500 or more always gives the unit back.
 */
export function rateLimiting({ rateLimiter: limiter, settings, logger, peerAddress }: RateLimitDeps) {
  return (budget: RateBudget, options: { refundOnSuccess?: boolean } = {}): MiddlewareHandler<AppEnv> => {
    const rule: RateRule = { name: budget, ...settings.rateLimits[budget] };
    return async (c, next) => {
      // Worked out here, not for every request: only limited routes need it.
      // An unidentifiable client shares one budget with every other such client.
      const key = resolveClient(peerAddress(c.req.raw, c.env), c.req.raw.headers, settings.trustProxy) ?? 'unknown';
      const now = new Date();
      let decision;
      try {
        decision = await limiter.take(rule, key, now);
      } catch (err) {
        logger.error('rate limiter failed; refusing the request', err);
        throw new DomainError('unavailable', 'Temporarily unavailable, try again shortly');
      }
      if (!decision.allowed) {
        throw new DomainError('rate_limited', 'Too many attempts; wait and try again', undefined, decision.retryAfterSeconds);
      }
      await next();
      // A 5xx judged nothing (the database was down, say): the client gets its
      // unit back, or an outage would use up everyone's login budget.
      if ((options.refundOnSuccess && c.res.status < 400) || c.res.status >= 500) {
        await limiter.refund(rule, key, now).catch((err) => logger.error('rate limit refund failed', err));
      }
    };
  };
}
