import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { ensurePrivateDir, ensurePrivateFile, restrictFile } from '../../fs/private-files.js';
import { unavailable } from '../shared/repository-support.js';
import type { SqlDb, SqlKit } from '../shared/sql-kit.js';
import * as tables from './sqlite.tables.js';
import { isSqliteConnectionError, isSqliteForeignKeyViolation, isSqliteUniqueViolation } from './sqlite-errors.js';

/** Node SQLite through better-sqlite3 (Node only). */

/**
 * drizzle's SQLite migrator, inside one EXCLUSIVE transaction that also
 * creates and reads its journal: drizzle's reads the journal before its own
 * (deferred) BEGIN, so two processes starting on a new file both saw nothing
 * applied and the second failed on CREATE TABLE. Here the second waits
 * (busy_timeout) and then finds every migration recorded. Same journal table,
 * rows and hashes as drizzle's.
 */
function migrateExclusive(client: Database.Database, migrationsFolder: string) {
  const migrations = readMigrationFiles({ migrationsFolder });
  client.exec('BEGIN EXCLUSIVE');
  try {
    client.exec(
      'CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)',
    );
    const last = client
      .prepare('SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1')
      .get() as { created_at: number | string } | undefined;
    const record = client.prepare('INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)');
    for (const migration of migrations) {
      if (last !== undefined && Number(last.created_at) >= migration.folderMillis) continue;
      for (const statement of migration.sql) client.prepare(statement).run();
      record.run(migration.hash, migration.folderMillis);
    }
    client.exec('COMMIT');
  } catch (err) {
    if (client.inTransaction) client.exec('ROLLBACK');
    throw err;
  }
}
/** How long a start waits for another process's migration or WAL set-up on the same file. */
const START_WAIT_MS = 60_000;
const isBusy = (err: unknown) => /^SQLITE_(BUSY|LOCKED)/.test(String((err as { code?: unknown } | null)?.code ?? ''));

/**
 * The start-up statements, again while another process holds the file: the
 * busy handler covers most waits, but not all (SQLite answers SQLITE_BUSY at
 * once where waiting could deadlock, as while another connection turns the
 * new file to WAL), and a loaded machine can outlast one busy_timeout.
 */
async function prepareFile(client: Database.Database, migrationsFolder: string, onBusy?: (attempt: number) => void) {
  const deadline = Date.now() + START_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      client.pragma('busy_timeout = 1000');
      client.pragma('journal_mode = WAL');
      client.pragma('foreign_keys = ON');
      client.pragma('synchronous = NORMAL');
      migrateExclusive(client, migrationsFolder);
      client.pragma('busy_timeout = 5000');
      return;
    } catch (err) {
      if (!isBusy(err) || Date.now() >= deadline) throw err;
      onBusy?.(attempt);
      await new Promise((resolve) => setTimeout(resolve, Math.min(500, 25 * attempt) + Math.random() * 50));
    }
  }
}

/** `onBusy`: told each time a start-up try found the file held by another process and will be tried again. */
export async function openSqliteKit(file: string, migrationsFolder: string, onBusy?: (attempt: number) => void) {
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
    await prepareFile(client, migrationsFolder, onBusy);
    const db = drizzle({ client });
    const kit: SqlKit = {
      dialect: 'sqlite',
      // better-sqlite3 is synchronous; awaiting its query builders still works,
      // which is all the async typing promises.
      db: db as unknown as SqlDb,
      tables,
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
