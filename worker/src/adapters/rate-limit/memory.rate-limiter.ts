import { gcraNext } from '../../core/domain/gcra.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';

/**
 * One process's budgets (Node with SQLite, where there is one instance).
 * Synchronous between reads and writes, so concurrent requests cannot both
 * take the last unit. Keys whose arrival time has passed are swept now and
 * then, so memory stays bounded by the clients seen in one window.
 */
export function createMemoryRateLimiter(maxKeys = 100_000): RateLimiter {
  const tats = new Map<string, number>();
  let nextSweep = 0;

  function sweep(nowMs: number) {
    if (nowMs < nextSweep && tats.size < maxKeys) return;
    nextSweep = nowMs + 60_000;
    for (const [k, tat] of tats) if (tat <= nowMs) tats.delete(k);
    // Still full of live keys: drop the oldest inserted rather than grow without bound.
    for (const k of tats.keys()) {
      if (tats.size < maxKeys) break;
      tats.delete(k);
    }
  }

  return {
    async take(rule, key, now) {
      const nowMs = now.getTime();
      sweep(nowMs);
      const k = `${rule.name}:${key}`;
      const next = gcraNext(tats.get(k) ?? null, rule, nowMs);
      if ('retryAfterMs' in next)
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(next.retryAfterMs / 1000)) };
      tats.set(k, next.tatMs);
      return { allowed: true, retryAfterSeconds: 0 };
    },
    async refund(rule, key, now) {
      const k = `${rule.name}:${key}`;
      const tat = tats.get(k);
      if (tat === undefined) return;
      const interval = (rule.windowSeconds * 1000) / rule.limit;
      tats.set(k, Math.max(now.getTime(), tat - interval));
    },
  };
}
