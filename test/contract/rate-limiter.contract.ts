import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RateLimiter, RateRule } from '../../worker/src/ports/rate-limiter.js';

export interface RateLimiterContractSetup {
  limiter: RateLimiter;
  cleanup(): Promise<void>;
}

/**
 * RateLimiter (GCRA), the same whatever keeps the budgets: SQL databases,
 * Durable Objects, memory. Nothing here may assume a particular store. Times
 * start at the real clock (a store may schedule clean-ups by it) and move
 * forward only through the `now` passed in. Rules divide their window evenly
 * into whole milliseconds, so every store computes the same numbers.
 */
export function runRateLimiterContract(name: string, setup: () => Promise<RateLimiterContractSetup>): void {
  describe(`RateLimiter contract: ${name}`, () => {
    let ctx: RateLimiterContractSetup;
    let limiter: RateLimiter;
    let t0: number;
    let unique: string;
    beforeEach(async () => {
      ctx = await setup();
      limiter = ctx.limiter;
      t0 = Date.now();
      unique = `${t0.toString(36)}-${Math.random().toString(36).slice(2)}`;
    });
    afterEach(async () => {
      await ctx.cleanup();
    });

    const at = (ms: number) => new Date(t0 + ms);
    /** 5 per minute: one unit every 12 s. */
    const rule = (overrides: Partial<RateRule> = {}): RateRule => ({
      name: `login-${unique}`,
      limit: 5,
      windowSeconds: 60,
      ...overrides,
    });
    const takeMany = async (r: RateRule, key: string, n: number, when = at(0)) => {
      const out = [];
      for (let i = 0; i < n; i++) out.push(await limiter.take(r, key, when));
      return out;
    };

    it('allows the limit in a burst, then denies with the seconds until one more fits', async () => {
      const r = rule();
      const burst = await takeMany(r, '203.0.113.7', 5);
      expect(burst).toEqual(Array(5).fill({ allowed: true, retryAfterSeconds: 0 }));
      expect(await limiter.take(r, '203.0.113.7', at(0))).toEqual({ allowed: false, retryAfterSeconds: 12 });
      // A denial takes nothing: the answer stays the same.
      expect(await limiter.take(r, '203.0.113.7', at(0))).toEqual({ allowed: false, retryAfterSeconds: 12 });
    });

    it('slides with the time passed in: one unit back per interval, the whole budget after a window', async () => {
      const r = rule();
      await takeMany(r, 'client', 5);
      expect(await limiter.take(r, 'client', at(5_000))).toEqual({ allowed: false, retryAfterSeconds: 7 });
      expect(await limiter.take(r, 'client', at(12_000))).toEqual({ allowed: true, retryAfterSeconds: 0 });
      expect(await limiter.take(r, 'client', at(12_000))).toEqual({ allowed: false, retryAfterSeconds: 12 });
      // Idle for a full window after the last unit: the whole budget again, and no more.
      const later = at(12_000 + 60_000);
      expect((await takeMany(r, 'client', 5, later)).every((d) => d.allowed)).toBe(true);
      expect((await limiter.take(r, 'client', later)).allowed).toBe(false);
    });

    it('rounds retryAfterSeconds up, and never below 1 while denied', async () => {
      // 4 per 10 s: one unit every 2.5 s.
      const r = rule({ limit: 4, windowSeconds: 10 });
      await takeMany(r, 'k', 4);
      expect(await limiter.take(r, 'k', at(0))).toEqual({ allowed: false, retryAfterSeconds: 3 });
      expect(await limiter.take(r, 'k', at(2_400))).toEqual({ allowed: false, retryAfterSeconds: 1 });
      expect(await limiter.take(r, 'k', at(2_499))).toEqual({ allowed: false, retryAfterSeconds: 1 });
      expect(await limiter.take(r, 'k', at(2_500))).toEqual({ allowed: true, retryAfterSeconds: 0 });
    });

    it('gives one unit back on refund', async () => {
      const r = rule();
      await takeMany(r, 'k', 5);
      await limiter.refund(r, 'k', at(0));
      expect((await limiter.take(r, 'k', at(0))).allowed).toBe(true);
      expect((await limiter.take(r, 'k', at(0))).allowed).toBe(false);
    });

    it('never refunds beyond a full budget', async () => {
      const r = rule();
      expect((await limiter.take(r, 'k', at(0))).allowed).toBe(true);
      for (let i = 0; i < 3; i++) await limiter.refund(r, 'k', at(0));
      const burst = await takeMany(r, 'k', 6);
      expect(burst.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
      // Refunding a key never seen is harmless and grants nothing extra.
      await limiter.refund(r, 'never-seen', at(0));
      expect((await takeMany(r, 'never-seen', 6)).filter((d) => d.allowed)).toHaveLength(5);
    });

    it('keeps keys and rule names apart', async () => {
      const login = rule();
      const reset = rule({ name: `reset-${unique}` });
      await takeMany(login, 'a', 5);
      expect((await limiter.take(login, 'a', at(0))).allowed).toBe(false);
      expect((await limiter.take(login, 'b', at(0))).allowed).toBe(true);
      expect((await takeMany(reset, 'a', 5)).every((d) => d.allowed)).toBe(true);
      expect((await limiter.take(reset, 'a', at(0))).allowed).toBe(false);
    });

    it('keeps long, unicode and space-bearing keys distinct', async () => {
      const r = rule({ limit: 1 });
      const long = 'x'.repeat(500);
      const keys = [
        long,
        `${long}y`,
        'user@example.com',
        'user@example.com ',
        'ä',
        'a',
        '2001:db8::1',
        'a\u0000b',
        'a',
      ];
      const decisions = [];
      for (const key of keys) decisions.push((await limiter.take(r, key, at(0))).allowed);
      // Every key is its own budget of one; the repeated 'a' at the end is not.
      expect(decisions).toEqual([true, true, true, true, true, true, true, true, false]);
      expect((await limiter.take(r, long, at(0))).allowed).toBe(false);
    });

    it('lets exactly the limit through when 50 requests race on one key', async () => {
      const r = rule({ limit: 10 });
      const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.take(r, 'racer', at(0))));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
      for (const d of decisions.filter((x) => !x.allowed)) expect(d.retryAfterSeconds).toBe(6);
    });
  });
}
