import type { Context, MiddlewareHandler } from 'hono';
import type { Settings } from '../../config/settings.js';
import { DomainError } from '../../core/domain/errors.js';
import type { RateLimiter, RateRule } from '../../ports/rate-limiter.js';
import type { Logger } from '../../ports/runtime.js';
import { resolveClient } from '../client-address.js';
import type { AppEnv } from '../env.js';

export interface RateLimitDeps {
  rateLimiter: RateLimiter;
  settings: Pick<Settings, 'rateLimits' | 'trustProxy' | 'trustProxyHeader'>;
  logger: Logger;
  peerAddress(request: Request, env: unknown): string | undefined;
}

export type RateBudget = keyof Settings['rateLimits'];

/**
 * Takes one unit of the client's budget before the handler runs, so 50
 * concurrent attempts cannot get more than the limit to a password check.
 * A limiter that fails closes the door (503), it never opens it.
 * `refundOnSuccess`: only failures count (a login that works gives its unit back).
 * An answer of 500 or more always gives the unit back.
 */
// Refunds the store could not take (it was down), kept to give back once it
// answers again; bounded so an endless outage cannot grow memory.
const MAX_PENDING_REFUNDS = 1000;

export function rateLimiting({ rateLimiter: limiter, settings, logger, peerAddress }: RateLimitDeps) {
  const pending: { rule: RateRule; key: string; at: Date }[] = [];
  let settling: Promise<void> | null = null;

  /** Gives back the refunds that failed, oldest first; stops at the first that still fails. */
  function settlePending(): Promise<void> {
    settling ??= (async () => {
      try {
        while (pending.length > 0) {
          const refund = pending[0]!;
          await limiter.refund(refund.rule, refund.key, refund.at);
          pending.shift();
        }
      } catch {
        // Still down: the next request tries again.
      } finally {
        settling = null;
      }
    })();
    return settling;
  }

  async function refund(rule: RateRule, key: string, at: Date): Promise<void> {
    try {
      await limiter.refund(rule, key, at);
    } catch (err) {
      logger.error('rate limit refund failed; kept to retry', err);
      if (pending.length < MAX_PENDING_REFUNDS) pending.push({ rule, key, at });
    }
  }

  const ruleOf = (budget: RateBudget): RateRule => ({ name: budget, ...settings.rateLimits[budget] });
  // Worked out on use, not for every request: only limited routes need it.
  // An unidentifiable client shares one budget with every other such client.
  const clientOf = (c: Context<AppEnv>) =>
    resolveClient(peerAddress(c.req.raw, c.env), c.req.raw.headers, settings.trustProxy, settings.trustProxyHeader) ??
    'unknown';

  /** Takes one unit for `key`, or throws 429 (503 when the store fails). */
  async function spend(rule: RateRule, key: string, now: Date): Promise<void> {
    const judge = async () => {
      try {
        return await limiter.take(rule, key, now);
      } catch (err) {
        logger.error('rate limiter failed; refusing the request', err);
        throw new DomainError('unavailable', 'Temporarily unavailable, try again shortly');
      }
    };
    let decision = await judge();
    // Units owed from an outage: a client refused now may be owed one. The
    // store answered the take, so settling costs no waiting on a dead store.
    if (!decision.allowed && pending.length > 0) {
      await settlePending();
      decision = await judge();
    } else if (pending.length > 0) {
      void settlePending();
    }
    if (!decision.allowed) {
      throw new DomainError(
        'rate_limited',
        'Too many attempts; wait and try again',
        undefined,
        decision.retryAfterSeconds,
      );
    }
  }

  const limit = (budget: RateBudget, options: { refundOnSuccess?: boolean } = {}): MiddlewareHandler<AppEnv> => {
    const rule = ruleOf(budget);
    return async (c, next) => {
      const key = clientOf(c);
      const now = new Date();
      await spend(rule, key, now);
      await next();
      // A 5xx judged nothing (the database was down, say): the client gets its
      // unit back, or an outage would use up everyone's login budget. A refund
      // the store cannot take now is given back when it answers again. After
      // the response: a store that is down must not add its deadline to it.
      if ((options.refundOnSuccess && c.res.status < 400) || c.res.status >= 500) c.var.defer(refund(rule, key, now));
    };
  };

  /**
   * The same budget taken inside a handler, once it knows that the request
   * really is an attempt (a password check that only some bodies ask for):
   * one unit for the client and one for each of `alsoKeys` (an account, so
   * that changing addresses does not buy more guesses), all given back when
   * `attempt` succeeds or the answer is a 5xx.
   */
  async function attempt<T>(
    c: Context<AppEnv>,
    budget: RateBudget,
    alsoKeys: string[],
    work: () => Promise<T>,
  ): Promise<T> {
    const rule = ruleOf(budget);
    const now = new Date();
    const taken: string[] = [];
    const giveBack = () => {
      for (const key of taken) c.var.defer(refund(rule, key, now));
    };
    try {
      for (const key of [clientOf(c), ...alsoKeys]) {
        await spend(rule, key, now);
        taken.push(key);
      }
    } catch (err) {
      // Refused before any check was made: the units already taken return.
      giveBack();
      throw err;
    }
    let result: T;
    try {
      result = await work();
    } catch (err) {
      if (!(err instanceof DomainError) || err.code === 'unavailable') giveBack();
      throw err;
    }
    giveBack();
    return result;
  }

  return Object.assign(limit, { attempt });
}
