import { type Column, getTableName, is, SQL, type Table } from 'drizzle-orm';
import { getTableConfig as mysqlConfig } from 'drizzle-orm/mysql-core';
import { getTableConfig as pgConfig } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as mysql from '../../worker/src/adapters/db/mysql/mysql.tables.js';
import * as pg from '../../worker/src/adapters/db/postgres/postgres.tables.js';
import * as sqlite from '../../worker/src/adapters/db/sqlite/sqlite.tables.js';

/**
 * The three dialects' tables describe one database: the same tables, columns
 * (in a common vocabulary of types), nullability, literal defaults, keys,
 * indexes, unique constraints, checks and foreign keys with their actions.
 * drizzle/schema-parity.ts proves the row types equal at compile time; this
 * compares what the types cannot see, from drizzle's own table config.
 */

const TYPES: Record<string, string> = {
  SQLiteText: 'text',
  MySqlText: 'text',
  MySqlVarChar: 'text',
  MySqlChar: 'text',
  PgText: 'text',
  PgVarchar: 'text',
  PgUUID: 'text',
  SQLiteInteger: 'integer',
  MySqlInt: 'integer',
  MySqlBigInt53: 'integer',
  PgInteger: 'integer',
  PgBigInt53: 'integer',
  SQLiteBoolean: 'boolean',
  MySqlBoolean: 'boolean',
  PgBoolean: 'boolean',
  SQLiteTimestamp: 'timestamp',
  MySqlDateTime: 'timestamp',
  PgTimestamp: 'timestamp',
};

interface RawConfig {
  name: string;
  columns: Column[];
  indexes: { config: { name: string; columns: unknown[]; unique: boolean } }[];
  primaryKeys: { columns: Column[] }[];
  uniqueConstraints: { getName(): string | undefined; columns: Column[] }[];
  foreignKeys: {
    getName(): string;
    onDelete?: string | undefined;
    onUpdate?: string | undefined;
    reference(): { columns: Column[]; foreignColumns: Column[]; foreignTable: Table };
  }[];
  checks: { name: string }[];
}

const names = (columns: unknown[]) => columns.map((c) => (is(c, SQL) ? 'sql' : (c as Column).name));
const sorted = <T>(items: T[]) => items.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** A defaulted literal must match; an SQL default only has to exist in every dialect. */
const defaultOf = (column: Column) => {
  if (!column.hasDefault) return null;
  const value = column.default;
  if (value === undefined || typeof value === 'object' || typeof value === 'function') return 'computed';
  return value;
};

function shape(config: RawConfig) {
  const columns = Object.fromEntries(
    config.columns.map((c) => {
      const type = TYPES[c.columnType];
      if (!type) throw new Error(`${config.name}.${c.name}: no common name for ${c.columnType}; add it to TYPES`);
      return [c.name, { type, notNull: c.notNull, default: defaultOf(c) }];
    }),
  );
  const primaryKey = [
    ...config.columns.filter((c) => c.primary).map((c) => [c.name]),
    ...config.primaryKeys.map((k) => names(k.columns)),
  ];
  const uniques = sorted([
    ...config.columns.filter((c) => c.isUnique).map((c) => ({ name: c.uniqueName ?? null, columns: [c.name] })),
    ...config.uniqueConstraints.map((u) => ({ name: u.getName() ?? null, columns: names(u.columns) })),
  ]);
  const indexes = sorted(
    config.indexes.map((i) => ({ name: i.config.name, columns: names(i.config.columns), unique: i.config.unique })),
  );
  const foreignKeys = sorted(
    config.foreignKeys.map((fk) => {
      const ref = fk.reference();
      return {
        name: fk.getName(),
        columns: names(ref.columns),
        references: `${getTableName(ref.foreignTable)}(${names(ref.foreignColumns).join(', ')})`,
        onDelete: fk.onDelete ?? 'no action',
        onUpdate: fk.onUpdate ?? 'no action',
      };
    }),
  );
  const checks = config.checks.map((c) => c.name).sort();
  return { name: config.name, columns, primaryKey, uniques, indexes, foreignKeys, checks };
}

const dialects = {
  sqlite: { tables: sqlite as Record<string, Table>, config: sqliteConfig },
  mysql: { tables: mysql as Record<string, Table>, config: mysqlConfig },
  postgres: { tables: pg as Record<string, Table>, config: pgConfig },
} as unknown as Record<string, { tables: Record<string, Table>; config: (t: Table) => RawConfig }>;

describe('schema parity across SQLite, MySQL and PostgreSQL', () => {
  const reference = Object.keys(sqlite).sort();

  it('declares the same tables under the same names in every dialect', () => {
    for (const [dialect, { tables }] of Object.entries(dialects)) {
      expect(Object.keys(tables).sort(), dialect).toEqual(reference);
    }
  });

  it.each(reference)('%s has the same columns, keys, indexes, uniques, checks and foreign keys', (table) => {
    const [expected, ...others] = Object.values(dialects).map(({ tables, config }) => shape(config(tables[table]!)));
    for (const [i, actual] of others.entries()) expect(actual, Object.keys(dialects)[i + 1]).toEqual(expected);
  });

  it('sees a difference (so the comparison above can fail)', () => {
    const base = shape(sqliteConfig(sqlite.articleImages) as unknown as RawConfig);
    const changed = shape({
      ...(sqliteConfig(sqlite.articleImages) as unknown as RawConfig),
      foreignKeys: (sqliteConfig(sqlite.articleImages) as unknown as RawConfig).foreignKeys.map((fk) => ({
        ...fk,
        getName: () => fk.getName(),
        reference: () => fk.reference(),
        onDelete: 'set null',
      })),
    });
    expect(changed).not.toEqual(base);
  });
});
