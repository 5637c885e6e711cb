import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { PgDialect, PgSession } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { unavailable } from '../shared/repository-support.js';
import { markingWrites, runDeadlineAware } from '../shared/request-deadline.js';
import { retryTransient } from '../shared/retry.js';
import { type Preparable, type SqlDb, type SqlKit, someInChain, type Tables } from '../shared/sql-kit.js';
import { isServerDatabaseUnavailable as isConnectionError } from '../shared/unavailable-errors.js';
import * as pgTables from './postgres.tables.js';

/** PostgreSQL through a postgres.js pool (Node only). */

const sqlState = (e: Record<string, unknown>) => (typeof e.code === 'string' ? e.code : '');

const isUniqueViolation = (err: unknown) => someInChain(err, (e) => sqlState(e) === '23505');
const isForeignKeyViolation = (err: unknown) => someInChain(err, (e) => sqlState(e) === '23503');
// serialization_failure, deadlock_detected
const isTransient = (err: unknown) => someInChain(err, (e) => ['40001', '40P01'].includes(sqlState(e)));

/**
 * `?search_path=name` in the URL puts the tables in that schema (postgres.js
 * passes unknown URL parameters on as connection parameters); the migration
 * journal then goes there too, so two schemas in one database stay apart.
 */
function schemaOf(url: string): string | undefined {
  const searchPath = new URL(url).searchParams.get('search_path');
  const first = searchPath?.split(',')[0]?.trim().replace(/^"|"$/g, '');
  return first ? first : undefined;
}

/**
 * drizzle's migrator, except that drizzle-kit writes foreign keys as
 * REFERENCES "public"."table": with a schema in the URL those must point into
 * that schema instead. Hashes are computed from the files, so they do not change.
 */
async function migrate(db: ReturnType<typeof drizzle>, migrationsFolder: string, schema: string | undefined) {
  const migrations = readMigrationFiles({ migrationsFolder });
  if (schema !== undefined) {
    const quoted = `"${schema.replaceAll('"', '""')}".`;
    for (const migration of migrations) migration.sql = migration.sql.map((s) => s.replaceAll('"public".', quoted));
  }
  // What drizzle-orm/postgres-js/migrator does, with the rewritten files.
  const internals = db as unknown as { dialect: PgDialect; session: PgSession };
  await internals.dialect.migrate(migrations, internals.session, {
    migrationsFolder,
    ...(schema !== undefined && { migrationsSchema: schema }),
  });
}

/**
 * Runs the migrations under a session advisory lock, so that instances
 * starting together (a rolling deploy, two servers on an empty database) apply
 * them one after the other: the second waits, then finds nothing left to do.
 * The lock is held on its own reserved connection and goes with it if that
 * connection dies.
 */
async function migrateLocked(client: postgres.Sql, run: () => Promise<void>) {
  const lock = await client.reserve();
  try {
    await lock`select pg_advisory_lock(hashtext('edge-cms migrations'))`;
    try {
      await run();
    } finally {
      await lock`select pg_advisory_unlock(hashtext('edge-cms migrations'))`;
    }
  } finally {
    lock.release();
  }
}

export async function openPostgresKit(url: string, migrationsFolder: string, timeoutMs: number) {
  const client = postgres(url, {
    max: 10,
    connect_timeout: Math.max(1, Math.ceil(timeoutMs / 1000)),
    idle_timeout: 60,
    // "schema already exists, skipping" and friends are not worth a log line.
    onnotice: () => undefined,
  });
  const db = drizzle({ client });
  const migrationsSchema = schemaOf(url);
  try {
    await migrateLocked(client, () => migrate(db, migrationsFolder, migrationsSchema));
  } catch (err) {
    await client.end({ timeout: 1 }).catch(() => undefined);
    throw isConnectionError(err) ? unavailable(err) : err;
  }
  const kit: SqlKit = {
    dialect: 'postgres',
    timeoutMs,
    db: markingWrites(db) as unknown as SqlDb,
    tables: pgTables as unknown as Tables,
    affectedRows: (result) => (result as { count?: number } | undefined)?.count ?? 0,
    isUniqueViolation,
    isForeignKeyViolation,
    isConnectionError,
    atomic: (build) =>
      retryTransient(
        () =>
          runDeadlineAware(
            (body) => db.transaction(body),
            (tx) => build(tx as unknown as SqlDb),
          ),
        isTransient,
      ),
    prepare<Row>(query: Preparable<Row>, name: string) {
      // PostgreSQL's builder takes the statement name; the SQLite type does not know that.
      const prepared = (query.prepare as (name: string) => ReturnType<Preparable<Row>['prepare']>).call(query, name);
      return async (values) => prepared.execute(values);
    },
  };
  return { kit, close: () => client.end({ timeout: 5 }) };
}
