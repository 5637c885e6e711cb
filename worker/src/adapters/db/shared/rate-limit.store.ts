import { and, eq, lt, type SQL, sql } from 'drizzle-orm';
import { DomainError } from '../../../core/domain/errors.js';
import type { RateDecision, RateLimiter, RateRule } from '../../../ports/rate-limiter.js';
import { unavailable } from './repository-support.js';
import { withDeadline } from './request-deadline.js';
import type { SqlKit } from './sql-kit.js';

/**
 * GCRA in the database, for Node on MySQL/PostgreSQL where several instances
 * must share one budget (it works on SQLite too). One row per
 * `${rule.name}:${key}` holds the theoretical arrival time; a single
 * conditional UPDATE both tests and moves it, so the database's row lock is
 * what serialises concurrent requests — 50 at once get exactly `limit`.
 *
 * The arithmetic is gcraNext's (core/domain/gcra.ts) with the interval
 * rounded down to whole milliseconds (the column is a bigint) and the window
 * taken as limit × interval, so a burst still admits exactly `limit`.
 */

/** How often, at most, rows whose arrival time has passed are deleted. */
const PRUNE_EVERY_MS = 60_000;
/** The key column is varchar(200); keys that do not fit are hashed. */
const MAX_KEY_LENGTH = 200;
// Printable ASCII without spaces: MySQL ignores trailing spaces when comparing
// and PostgreSQL refuses NUL, so anything else is stored as a hash instead.
const PLAIN_KEY = /^[\x21-\x7e]+$/;

async function storedKey(rule: RateRule, key: string): Promise<string> {
  const full = `${rule.name}:${key}`;
  if (full.length <= MAX_KEY_LENGTH && PLAIN_KEY.test(full)) return full;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(full)));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
  // The space keeps hashed keys apart from every plain one.
  return `${rule.name.slice(0, 100)} ${hex}`;
}

function timing(rule: RateRule): { intervalMs: number; windowMs: number } {
  if (!Number.isInteger(rule.limit) || rule.limit < 1 || !(rule.windowSeconds > 0)) {
    throw new Error(`rate rule ${rule.name}: limit must be a positive integer and windowSeconds positive`);
  }
  const intervalMs = Math.max(1, Math.floor((rule.windowSeconds * 1000) / rule.limit));
  return { intervalMs, windowMs: intervalMs * rule.limit };
}

const retryAfter = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export function createSqlRateLimiter(kit: SqlKit): RateLimiter {
  const { db } = kit;
  const { rateLimits } = kit.tables;
  const greatest = (a: SQL | typeof rateLimits.tatMs, b: number) =>
    kit.dialect === 'sqlite' ? sql`max(${a}, ${b})` : sql`greatest(${a}, ${b})`;
  let lastPrune = Number.NEGATIVE_INFINITY;

  /** Insert-if-missing: a concurrent insert of the same key is not an error. */
  function insertIfMissing(key: string, nowMs: number): PromiseLike<unknown> {
    const row = { key, tatMs: nowMs };
    if (kit.dialect === 'mysql') {
      const builder = db.insert(rateLimits) as unknown as { ignore(): { values(v: typeof row): PromiseLike<unknown> } };
      return builder.ignore().values(row);
    }
    return db.insert(rateLimits).values(row).onConflictDoNothing();
  }

  async function prune(nowMs: number): Promise<void> {
    if (nowMs - lastPrune < PRUNE_EVERY_MS && nowMs >= lastPrune) return;
    lastPrune = nowMs;
    // A row whose arrival time has passed means the same as no row. A failed
    // cleanup is not a failed request: the take that follows reports real trouble.
    await Promise.resolve(db.delete(rateLimits).where(lt(rateLimits.tatMs, nowMs))).catch(() => undefined);
  }

  async function take(rule: RateRule, key: string, now: Date): Promise<RateDecision> {
    const { intervalMs, windowMs } = timing(rule);
    const k = await storedKey(rule, key);
    const nowMs = now.getTime();
    await prune(nowMs);
    const next = sql`${greatest(rateLimits.tatMs, nowMs)} + ${intervalMs}`;
    // A few rounds at most: a missing row is inserted and the update retried;
    // a row refunded or pruned between the update and the read is retried too.
    for (let round = 0; round < 4; round++) {
      const result = await db
        .update(rateLimits)
        .set({ tatMs: next })
        .where(and(eq(rateLimits.key, k), sql`${next} - ${nowMs} <= ${windowMs}`));
      if (kit.affectedRows(result) === 1) return { allowed: true, retryAfterSeconds: 0 };
      const [row] = await db.select({ tatMs: rateLimits.tatMs }).from(rateLimits).where(eq(rateLimits.key, k)).limit(1);
      if (!row) {
        await insertIfMissing(k, nowMs);
        continue;
      }
      const over = Math.max(Number(row.tatMs), nowMs) + intervalMs - nowMs - windowMs;
      if (over > 0) return { allowed: false, retryAfterSeconds: retryAfter(over) };
    }
    throw new DomainError('unavailable', 'The rate limiter could not settle a decision');
  }

  async function refund(rule: RateRule, key: string, now: Date): Promise<void> {
    const { intervalMs } = timing(rule);
    const k = await storedKey(rule, key);
    const nowMs = now.getTime();
    await db
      .update(rateLimits)
      .set({ tatMs: greatest(sql`${rateLimits.tatMs} - ${intervalMs}`, nowMs) })
      .where(eq(rateLimits.key, k));
  }

  // Callers fail closed: any failure of the store is 'unavailable'.
  const failClosed =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await withDeadline(kit.timeoutMs, () => fn(...args));
      } catch (err) {
        throw err instanceof DomainError ? err : unavailable(err);
      }
    };
  return { take: failClosed(take), refund: failClosed(refund) };
}
