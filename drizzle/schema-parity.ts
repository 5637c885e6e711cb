import type { InferInsertModel, InferSelectModel, Table } from 'drizzle-orm';
import type * as mysql from './mysql/tables.js';
import type * as pg from './postgres/tables.js';
import type * as sqlite from './sqlite/tables.js';

/**
 * Compile-time proof (`npm run typecheck`) that the three dialects' tables agree on
 * their tables, property names and result types (test/unit/schema-parity.test.ts
 * compares the rest: column types, keys, indexes, foreign keys). The shared repositories cast the MySQL and
 * PostgreSQL tables to the SQLite tables' type; this is what makes that honest.
 */

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Same<A extends Table, B extends Table> =
  Equal<InferSelectModel<A>, InferSelectModel<B>> extends true
    ? Equal<InferInsertModel<A>, InferInsertModel<B>>
    : false;
type Assert<T extends true> = T;

/** Every table, derived from the SQLite tables; the other two must declare exactly the same ones. */
type TableNames = keyof typeof sqlite;
type SameKeys<Other> = Equal<keyof Other, TableNames>;
type AllSame<Other extends Record<TableNames, Table>> = {
  [K in TableNames]: Same<(typeof sqlite)[K], Other[K]>;
}[TableNames];

export type SchemaParity = [
  Assert<SameKeys<typeof mysql>>,
  Assert<SameKeys<typeof pg>>,
  Assert<AllSame<{ [K in TableNames]: (typeof mysql)[K] }>>,
  Assert<AllSame<{ [K in TableNames]: (typeof pg)[K] }>>,
];
