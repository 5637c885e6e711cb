/**
 * A write and everything it causes, as one unit (docs/architecture.md#a-write-is-one-unit).
 * A feature that a write concerns (the activity log, the webhook outbox) hands
 * the writing feature `Consequences`: rows its own repository builds, which
 * the write's repository puts into the write's transaction (a D1 batch), so
 * they commit with it or not at all, and steps to run once it committed
 * (deliveries, an append to a file log, a trim).
 */

declare const rowsBrand: unique symbol;

/**
 * Statements for one feature's tables, built by its repository for another
 * feature's write. Opaque outside the repositories: only
 * adapters/db/shared/unit-of-work.ts makes and reads them.
 */
export interface Rows {
  readonly [rowsBrand]: true;
}

export interface Consequences {
  /** Committed in the write's own transaction, only when the write itself happens. */
  rows: Rows[];
  /** Run after the commit, never before; each step reports its own failures and never rejects. */
  afterCommit: Array<() => Promise<void>>;
}

export const NO_CONSEQUENCES: Consequences = { rows: [], afterCommit: [] };

export const joinConsequences = (...parts: Consequences[]): Consequences => ({
  rows: parts.flatMap((p) => p.rows),
  afterCommit: parts.flatMap((p) => p.afterCommit),
});
