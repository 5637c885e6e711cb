import { exists, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Rows } from '../../../ports/unit-of-work.js';
import type { SqlDb, WriteStatement } from './sql-kit.js';

/**
 * Where another feature's rows apply: only while `table` has a row matching
 * `where` (the write's own target). The writing repository puts these rows
 * before its own statements, after taking its row's lock (PostgreSQL,
 * MySQL; SQLite and D1 run a batch alone), so the rows and the write see the
 * same row: both happen or neither. Undefined: the write cannot miss (an
 * insert, which fails the whole batch when it fails).
 */
export interface Guard {
  table: SQLiteTable;
  where: SQL | undefined;
}

type BuildRows = (tx: SqlDb, guard: Guard | undefined) => WriteStatement[];

/** Rows for a unit of work: `build` is called inside the write's transaction, maybe more than once (a retry). */
export const rowsOf = (build: BuildRows): Rows => build as unknown as Rows;

/** The statements of every part, for the writing repository's `kit.atomic`. */
export const statementsOf = (parts: readonly Rows[], tx: SqlDb, guard?: Guard): WriteStatement[] =>
  parts.flatMap((part) => (part as unknown as BuildRows)(tx, guard));

/** A bound value in a SELECT list, converted as the column it is inserted into. */
export const boundAs = <T>(value: T, column: Parameters<typeof sql.param>[1] & { name: string }) =>
  sql`${sql.param(value, column)}`.as(column.name);

/**
 * One row: a plain insert, or with a guard INSERT … SELECT of the same values
 * from the guard's row, which inserts nothing when the write will not happen.
 * Every column is selected in the table's order (drizzle requires both).
 */
export function insertRow(tx: SqlDb, table: SQLiteTable, values: Record<string, unknown>, guard?: Guard) {
  if (!guard) return tx.insert(table).values(values);
  const columns = getTableColumns(table);
  const fields = Object.fromEntries(
    Object.entries(columns).map(([key, column]) => [key, boundAs(values[key] ?? null, column)]),
  );
  return tx.insert(table).select(tx.select(fields).from(guard.table).where(guard.where));
}

/** The guard as a condition for an update or delete of another table; undefined without a guard. */
export const guardHolds = (tx: SqlDb, guard: Guard | undefined): SQL | undefined =>
  guard && exists(tx.select({ one: sql`1` }).from(guard.table).where(guard.where));
