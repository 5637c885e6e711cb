import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import type * as sqliteTables from '../sqlite/sqlite.tables.js';

/**
 * What the shared repositories need from a dialect. The repositories are
 * written once against drizzle's SQLite builder types; the MySQL and
 * PostgreSQL kits hand in their own db and tables cast to those types. That
 * is sound only for the builder subset the three dialects share (select,
 * insert, update, delete, where/orderBy/limit, sql``), so the repositories
 * avoid RETURNING, onConflict, db.run/db.all and friends.
 * drizzle/schema-parity.ts keeps the tables' property names and types equal.
 */

export type SqlDb = BaseSQLiteDatabase<'async', unknown>;

/** Every table, by property name: the SQLite tables module itself, so a new table needs no line here. */
export type Tables = typeof sqliteTables;

/** An insert, update or delete built from the db that `atomic` passes in; not awaited by the caller. */
export type WriteStatement = PromiseLike<unknown>;

/** A prepared read: one round trip, statement text parsed once. */
export type PreparedRead<Row> = (values: Record<string, unknown>) => Promise<Row[]>;

/** The minimum a select builder offers on every dialect. */
export interface Preparable<Row> {
  prepare(): { execute(values?: Record<string, unknown>): PromiseLike<Row[]> };
}

export interface SqlKit {
  readonly dialect: 'sqlite' | 'mysql' | 'postgres';
  /**
   * The largest row the store accepts, where it has one below the engine's
   * own (D1: 2,000,000 bytes); larger writes are refused as too large
   * before they are sent.
   */
  readonly maxRowBytes?: number;
  /**
   * The longest one repository call may take before it is answered as
   * 'unavailable' (server databases: a stopped or unreachable server must
   * be a quick 503, not a request that hangs). Unset: no deadline (SQLite
   * on the same disk, D1 which bounds its own calls).
   */
  readonly timeoutMs?: number;
  readonly db: SqlDb;
  readonly tables: Tables;
  /** Rows matched by an update or delete, from the driver's raw result. */
  affectedRows(result: unknown): number;
  isUniqueViolation(err: unknown): boolean;
  isForeignKeyViolation(err: unknown): boolean;
  /** Connection refused, lost or timed out: the caller gets 'unavailable'. */
  isConnectionError(err: unknown): boolean;
  /**
   * Runs the statements all or nothing and returns their raw results in
   * order. `build` may be called more than once (a retry after a deadlock),
   * so it must only build statements, not cause effects.
   */
  atomic(build: (db: SqlDb) => WriteStatement[]): Promise<unknown[]>;
  /** `name` is required by PostgreSQL and ignored elsewhere. */
  prepare<Row>(query: Preparable<Row>, name: string): PreparedRead<Row>;
}

/** Walks `cause` links: drizzle wraps driver errors in DrizzleQueryError. */
export function errorChain(err: unknown): Array<Record<string, unknown>> {
  const chain: Array<Record<string, unknown>> = [];
  let current: unknown = err;
  while (current !== null && typeof current === 'object' && chain.length < 8) {
    const record = current as Record<string, unknown>;
    chain.push(record);
    current = record.cause;
  }
  return chain;
}

export function someInChain(err: unknown, test: (e: Record<string, unknown>) => boolean): boolean {
  return errorChain(err).some(test);
}
