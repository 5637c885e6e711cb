/**
 * Per-client budgets for login, password reset and verification.
 * Durable Objects on Workers, memory on Node with SQLite, the database on
 * Node with MySQL/PostgreSQL (so several instances share one budget).
 * Implementations are GCRA: one "theoretical arrival time" per key, updated
 * atomically. A store that fails throws: callers fail closed.
 */
export interface RateRule {
  /** Names the budget, e.g. 'login'. Part of the stored key. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until one more request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Takes one unit of `rule` for `key` if the budget allows. */
  take(rule: RateRule, key: string, now: Date): Promise<RateDecision>;
  /** Gives one unit back (a successful login does not count against the client). */
  refund(rule: RateRule, key: string, now: Date): Promise<void>;
}
