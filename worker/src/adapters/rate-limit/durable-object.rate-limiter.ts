import { DurableObject } from 'cloudflare:workers';
import { DomainError } from '../../core/domain/errors.js';
import { gcraNext } from '../../core/domain/gcra.js';
import type { RateDecision, RateLimiter, RateRule } from '../../ports/rate-limiter.js';

/**
 * One Durable Object per client and budget: its single thread and input
 * gates make read-then-write atomic, so 50 concurrent attempts from one
 * client cannot get more than the limit through.
 */
export class RateLimiterObject extends DurableObject {
  async take(rule: RateRule, nowMs: number): Promise<RateDecision> {
    const next = gcraNext((await this.ctx.storage.get<number>('tat')) ?? null, rule, nowMs);
    if ('retryAfterMs' in next)
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(next.retryAfterMs / 1000)) };
    await this.ctx.storage.put('tat', next.tatMs);
    // Nothing to keep once the budget is whole again.
    await this.ctx.storage.setAlarm(next.tatMs);
    return { allowed: true, retryAfterSeconds: 0 };
  }

  async refund(rule: RateRule, nowMs: number): Promise<void> {
    const tat = await this.ctx.storage.get<number>('tat');
    if (tat === undefined) return;
    await this.ctx.storage.put('tat', Math.max(nowMs, tat - (rule.windowSeconds * 1000) / rule.limit));
  }

  override async alarm(): Promise<void> {
    const tat = await this.ctx.storage.get<number>('tat');
    if (tat === undefined || tat <= Date.now()) await this.ctx.storage.deleteAll();
  }
}

const failed = () => new DomainError('unavailable', 'The rate limiter is unavailable');

export function createDurableObjectRateLimiter(namespace: DurableObjectNamespace<RateLimiterObject>): RateLimiter {
  const stub = (rule: RateRule, key: string) => namespace.get(namespace.idFromName(`${rule.name}:${key}`));
  return {
    async take(rule, key, now) {
      try {
        return await stub(rule, key).take(rule, now.getTime());
      } catch {
        throw failed();
      }
    },
    async refund(rule, key, now) {
      try {
        await stub(rule, key).refund(rule, now.getTime());
      } catch {
        throw failed();
      }
    },
  };
}
