import { AsyncLocalStorage } from 'node:async_hooks';
import { DomainError } from '../../../core/domain/errors.js';

/**
 * One deadline for all the database work of a request (DATABASE_TIMEOUT_MS),
 * not one per call: a write makes several calls, and a limit for each let an
 * outage be answered only after their sum. The budget counts the time during
 * which at least one call of the request is outstanding (time spent elsewhere,
 * hashing a password or decoding an image, is not the database's), and each
 * call may take what is left of it.
 *
 * A timed-out call must never leave a committed write behind its 503. The
 * kits' transactions check their call before every statement and before
 * COMMIT (`DatabaseCall.assertLive`): past the deadline they roll back instead
 * of going on in the background. A write outside a transaction is one
 * statement that commits by itself: it is not sent past the deadline, and
 * once sent it counts as a COMMIT on its way (`markingWrites`). A call whose
 * COMMIT is already on its way
 * when the deadline comes is waited for, up to one more limit, so that the
 * answer says what happened; a commit that does not answer even then, or a
 * committed call whose reads after it do not, is a 503 whose message says so.
 */

class Budget {
  private spentMs = 0;
  private active = 0;
  private since = 0;

  remaining(limitMs: number): number {
    return limitMs - this.spentMs - (this.active > 0 ? performance.now() - this.since : 0);
  }
  start(): void {
    if (this.active++ === 0) this.since = performance.now();
  }
  end(): void {
    if (--this.active === 0) this.spentMs += performance.now() - this.since;
  }
}

const budgets = new AsyncLocalStorage<Budget>();

/**
 * Runs a request's work with its own database budget (the wiring wraps every
 * request in it). Work the request hands to waitUntil shares what is left;
 * what it cannot finish (a webhook's first attempt) the scheduled jobs retry.
 */
export function withDatabaseBudget<T>(work: () => T): T {
  return budgets.run(new Budget(), work);
}

/**
 * A step of a bulk read that streams for as long as it has rows (an export):
 * each step gets the whole limit, as outside a request, instead of sharing
 * one budget that a large export would outgrow. Each step is still bounded.
 */
export function outsideDatabaseBudget<T>(work: () => T): T {
  return budgets.exit(work);
}

/** One repository call, as its transaction sees it. */
export class DatabaseCall {
  expired = false;
  /** COMMIT is on its way: the deadline waits for its outcome. */
  committing = false;
  /** A write of this call committed: whatever follows, the caller must learn the outcome. */
  committed = false;
  /** A single statement that writes (its own commit) was sent: waited for like a COMMIT. */
  writing = false;

  /** Throws once the call's deadline has passed, so that its transaction rolls back rather than commits late. */
  assertLive(): void {
    if (this.expired) throw timedOut();
  }
}

const calls = new AsyncLocalStorage<DatabaseCall>();

/** The repository call running now, if it runs under a deadline. */
export const currentDatabaseCall = (): DatabaseCall | undefined => calls.getStore();

const timedOut = (message = 'The database did not answer in time') =>
  Object.assign(new DomainError('unavailable', message), { cause: new Error('database deadline passed') });

/**
 * Runs one repository call under what is left of the request's budget (or the
 * whole limit outside a request). Past it the caller gets 'unavailable' at
 * once, unless a COMMIT is in flight or done (see above).
 */
export async function withDeadline<R>(limitMs: number | undefined, work: () => Promise<R>): Promise<R> {
  if (limitMs === undefined) return work();
  const budget = budgets.getStore();
  const ms = budget === undefined ? limitMs : budget.remaining(limitMs);
  if (ms <= 0) throw timedOut();
  const call = new DatabaseCall();
  budget?.start();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    const expire = (grace: boolean) => {
      if (!grace && (call.committing || call.committed || call.writing)) {
        timer = setTimeout(() => expire(true), limitMs);
        return;
      }
      call.expired = true;
      reject(
        !grace
          ? timedOut()
          : call.committed
            ? timedOut('The write was saved, but the database did not finish answering in time')
            : timedOut('The database did not confirm the write in time: it may or may not have been saved'),
      );
    };
    timer = setTimeout(() => expire(false), ms);
  });
  try {
    return await Promise.race([calls.run(call, work), deadline]);
  } finally {
    clearTimeout(timer);
    budget?.end();
  }
}

/**
 * The body of a MySQL/PostgreSQL `atomic`: runs the statements in order inside
 * the transaction, and lets the call's deadline stop it before any statement
 * and before COMMIT, so that a transaction the caller gave up on rolls back.
 * `transaction` is the driver's (drizzle's `db.transaction`).
 */
export async function runDeadlineAware<Tx>(
  transaction: (body: (tx: Tx) => Promise<unknown[]>) => Promise<unknown[]>,
  statements: (tx: Tx) => PromiseLike<unknown>[],
): Promise<unknown[]> {
  const call = currentDatabaseCall();
  try {
    const results = await transaction(async (tx) => {
      const out: unknown[] = [];
      for (const statement of statements(tx)) {
        call?.assertLive();
        out.push(await statement);
      }
      call?.assertLive();
      if (call) call.committing = true;
      return out;
    });
    if (call) call.committed = true;
    return results;
  } finally {
    if (call) call.committing = false;
  }
}

const WRITES = new Set(['insert', 'update', 'delete']);

/**
 * The kit's db, with `insert`, `update` and `delete` telling the running call
 * that a write is about to be sent (or refusing it past the deadline). The
 * builders themselves are drizzle's, untouched; transactions build on their
 * own `tx` and are covered by `runDeadlineAware`.
 */
export function markingWrites<D extends object>(db: D): D {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop !== 'string' || !WRITES.has(prop) || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const call = currentDatabaseCall();
        if (call) {
          call.assertLive();
          call.writing = true;
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
