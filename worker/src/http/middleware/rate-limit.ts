import type { MiddlewareHandler } from 'hono';
import type { Settings } from '../../config/settings.js';
import { DomainError } from '../../core/domain/errors.js';
import type { RateLimiter, RateRule } from '../../ports/rate-limiter.js';
import type { Logger } from '../../ports/runtime.js';
import type { AppEnv } from '../env.js';

export type RateBudget = keyof Settings['rateLimits'];

/**
 * Takes one unit of the client's budget before the handler runs, so 50
 * concurrent attempts cannot get more than the limit to a password check.
 * A limiter that fails closes the door (503), it never opens it.
 * `refundOnSuccess`: only failures count (a login that works gives its unit back).
 */
export function rateLimiting(limiter: RateLimiter, settings: Settings, logger: Logger) {
  return (budget: RateBudget, options: { refundOnSuccess?: boolean } = {}): MiddlewareHandler<AppEnv> => {
    const rule: RateRule = { name: budget, ...settings.rateLimits[budget] };
    return async (c, next) => {
      // An unidentifiable client shares one budget with every other such client.
      const key = c.var.clientKey ?? 'unknown';
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
      if (options.refundOnSuccess && c.res.status < 400) {
        await limiter.refund(rule, key, now).catch((err) => logger.error('rate limit refund failed', err));
      }
    };
  };
}
