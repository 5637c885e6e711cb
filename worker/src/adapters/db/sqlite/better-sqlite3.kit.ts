import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { ensurePrivateDir, ensurePrivateFile, restrictFile } from '../../fs/private-files.js';
import { unavailable } from '../shared/repository-support.js';
import type { SqlDb, SqlKit } from '../shared/sql-kit.js';
import * as schema from './sqlite.schema.js';
import { isSqliteConnectionError, isSqliteForeignKeyViolation, isSqliteUniqueViolation } from './sqlite-errors.js';

/** Node SQLite through better-sqlite3 (Node only). */
export async function openSqliteKit(file: string, migrationsFolder: string) {
  let client: Database.Database;
  try {
    if (file !== ':memory:') {
      // SQLite creates -wal and -shm with the database file's mode: a 0600
      // database keeps its journal private too.
      await ensurePrivateDir(path.dirname(path.resolve(file)));
      await ensurePrivateFile(file);
      for (const side of ['-wal', '-shm', '-journal']) await restrictFile(`${file}${side}`);
    }
    client = new Database(file);
  } catch (err) {
    throw isSqliteConnectionError(err) ? unavailable(err) : err;
  }
  try {
    client.pragma('journal_mode = WAL');
    client.pragma('foreign_keys = ON');
    client.pragma('busy_timeout = 5000');
    client.pragma('synchronous = NORMAL');
    const db = drizzle({ client });
    migrate(db, { migrationsFolder });
    const kit: SqlKit = {
      dialect: 'sqlite',
      // better-sqlite3 is synchronous; awaiting its query builders still works,
      // which is all the async typing promises.
      db: db as unknown as SqlDb,
      tables: schema,
      affectedRows: (result) => (result as { changes?: number } | undefined)?.changes ?? 0,
      isUniqueViolation: isSqliteUniqueViolation,
      isForeignKeyViolation: isSqliteForeignKeyViolation,
      isConnectionError: isSqliteConnectionError,
      async atomic(build) {
        // One connection, synchronous statements: nothing can interleave.
        // IMMEDIATE takes the write lock up front, so another process cannot
        // make the transaction fail half-way with SQLITE_BUSY.
        return db.transaction(
          (tx) => build(tx as unknown as SqlDb).map((statement) => (statement as unknown as { run(): unknown }).run()),
          { behavior: 'immediate' },
        );
      },
      prepare(query) {
        const prepared = query.prepare();
        return async (values) => prepared.execute(values);
      },
    };
    return { kit, close: async () => void client.close() };
  } catch (err) {
    client.close();
    throw isSqliteConnectionError(err) ? unavailable(err) : err;
  }
}
