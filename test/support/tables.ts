import { getTableName, type Table } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import * as sqliteTables from '../../worker/src/adapters/db/sqlite/sqlite.tables.js';

/**
 * Every table, children before parents, so that deleting in this order never
 * trips a foreign key. Derived from the tables' foreign keys (the three
 * dialects declare the same ones: test/unit/schema-parity.test.ts), so a new
 * table needs nothing here. Runs in workerd too: no Node imports.
 */
export function childFirst(tables: readonly Table[]): string[] {
  const parents = new Map(
    tables.map((t) => [
      getTableName(t),
      getTableConfig(t as Parameters<typeof getTableConfig>[0]).foreignKeys.map((fk) =>
        getTableName(fk.reference().foreignTable),
      ),
    ]),
  );
  const order: string[] = [];
  const visiting = new Set<string>();
  // Parents are placed after every child that references them: a depth-first
  // walk that emits a table once all tables referencing it are emitted.
  const children = (name: string) => [...parents].filter(([, p]) => p.includes(name)).map(([child]) => child);
  const visit = (name: string) => {
    if (order.includes(name)) return;
    if (visiting.has(name)) throw new Error(`foreign keys form a cycle through ${name}`);
    visiting.add(name);
    for (const child of children(name)) if (child !== name) visit(child);
    visiting.delete(name);
    order.push(name);
  };
  for (const name of [...parents.keys()].sort()) visit(name);
  return order;
}

export const TABLES_CHILD_FIRST: readonly string[] = childFirst(Object.values(sqliteTables));
