import type { InferInsertModel, InferSelectModel, Table } from 'drizzle-orm';
import type * as mysql from './mysql/schema.js';
import type * as pg from './postgres/schema.js';
import type * as sqlite from './sqlite/schema.js';

/**
 * Compile-time proof (`npm run typecheck`) that the three schemas agree on
 * property names and result types. The shared repositories cast the MySQL and
 * PostgreSQL tables to the SQLite tables' type; this is what makes that honest.
 */

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Same<A extends Table, B extends Table> =
  Equal<InferSelectModel<A>, InferSelectModel<B>> extends true
    ? Equal<InferInsertModel<A>, InferInsertModel<B>>
    : false;
type Assert<T extends true> = T;

type TableNames =
  | 'users'
  | 'sites'
  | 'authors'
  | 'articles'
  | 'articleAuthors'
  | 'images'
  | 'invitations'
  | 'rateLimits'
  | 'articleImages'
  | 'purgeSettings'
  | 'purgeRuns'
  | 'leases'
  | 'apiKeys'
  | 'activityLog'
  | 'activityLogUsage'
  | 'systemState';
type AllSame<Other extends Record<TableNames, Table>> = {
  [K in TableNames]: Same<(typeof sqlite)[K], Other[K]>;
}[TableNames];

export type SchemaParity = [
  Assert<AllSame<{ [K in TableNames]: (typeof mysql)[K] }>>,
  Assert<AllSame<{ [K in TableNames]: (typeof pg)[K] }>>,
];
