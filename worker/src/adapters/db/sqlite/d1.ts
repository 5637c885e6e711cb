import type { BatchItem } from 'drizzle-orm/batch';
import { drizzle } from 'drizzle-orm/d1';
import type { ActivityLogStore } from '../../../ports/activity-log.js';
import { createSqlActivityLogStore } from '../shared/activity-log.store.js';
import type { SqlDb, SqlKit } from '../shared/sql-kit.js';
import * as tables from './sqlite.tables.js';
import { isSqliteConnectionError, isSqliteForeignKeyViolation, isSqliteUniqueViolation } from './sqlite-errors.js';

/** D1: Worker-safe, so nothing here may import a Node module or better-sqlite3. */
export function createD1Kit(d1: D1Database): SqlKit {
  const db = drizzle(d1);
  return {
    dialect: 'sqlite',
    // Cloudflare D1's documented limit on a string, BLOB or row; local
    // simulation does not enforce it, so the adapter does.
    maxRowBytes: 2_000_000,
    db: db as unknown as SqlDb,
    tables,
    affectedRows: (result) => (result as D1Result | undefined)?.meta?.changes ?? 0,
    isUniqueViolation: isSqliteUniqueViolation,
    isForeignKeyViolation: isSqliteForeignKeyViolation,
    isConnectionError: isSqliteConnectionError,
    async atomic(build) {
      const statements = build(db as unknown as SqlDb) as unknown as BatchItem<'sqlite'>[];
      if (statements.length === 0) return [];
      // A D1 batch is one implicit transaction: any failure rolls back all.
      return db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
    },
    prepare(query) {
      const prepared = query.prepare();
      return async (values) => prepared.execute(values);
    },
  };
}

export function createD1ActivityLog(d1: D1Database, maxBytes: number): ActivityLogStore {
  return createSqlActivityLogStore(createD1Kit(d1), maxBytes);
}
