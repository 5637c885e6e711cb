import { type FreshDatabase, freshMysqlDatabase, freshPostgresDatabase } from './server-databases.js';

/**
 * Server databases for API harnesses, reused within one test file. Creating
 * a database and applying every migration costs a MariaDB or PostgreSQL
 * server far more than the few rows a suite writes (64 DDL statements, each
 * with its own flush), and an API suite opens a harness per block. So when a
 * harness is done, its database is emptied and handed to the next harness of
 * the same file instead of being dropped, but only while its structure is
 * exactly what the migrations made: a database that a test changed (a
 * trigger or function from `failInserts`, a table, a column) is dropped as
 * before. The app finds its migrations recorded and applies none.
 *
 * Every database still left at the end of a file is dropped by
 * `test/support/drop-pooled-databases.ts` (a setup file of the node project).
 */
type Dialect = 'mysql' | 'postgres';

interface Pooled {
  db: FreshDatabase;
  name: string;
}

const idle: Record<Dialect, Pooled[]> = { mysql: [], postgres: [] };
const pristine: Partial<Record<Dialect, string>> = {};

const nameOf = (url: string) => new URL(url).pathname.slice(1);

/** A migrated (or, the first time, empty) database; `release` empties and keeps it, or drops it. */
export async function pooledDatabase(dialect: Dialect): Promise<FreshDatabase> {
  const reused = idle[dialect].pop();
  const db = reused?.db ?? (await (dialect === 'mysql' ? freshMysqlDatabase() : freshPostgresDatabase()));
  const name = reused?.name ?? nameOf(db.url);
  return {
    url: db.url,
    async drop() {
      if (await emptied(dialect, db.url, name)) idle[dialect].push({ db, name });
      else await db.drop();
    },
  };
}

/** Drops every idle database (the end of a test file). */
export async function dropPooledDatabases(): Promise<void> {
  for (const dialect of ['mysql', 'postgres'] as const) {
    for (const { db } of idle[dialect].splice(0)) await db.drop().catch(() => {});
  }
}

/**
 * Empties the database when its structure is the migrations' own (the first
 * migrated database of the file sets what that is); false when it must go.
 */
async function emptied(dialect: Dialect, url: string, name: string): Promise<boolean> {
  try {
    const client = dialect === 'mysql' ? await mysqlClient(url) : await postgresClient(url);
    try {
      const shape = await client.shape(name);
      if (!shape.migrated) return false;
      pristine[dialect] ??= shape.fingerprint;
      if (shape.fingerprint !== pristine[dialect]) return false;
      await client.empty(shape.tables);
      return true;
    } finally {
      await client.close();
    }
  } catch {
    return false;
  }
}

interface Client {
  /** `migrated`: the journal is there and no trigger or function was added (what `failInserts` leaves). */
  shape(name: string): Promise<{ migrated: boolean; tables: string[]; fingerprint: string }>;
  empty(tables: string[]): Promise<void>;
  close(): Promise<void>;
}

async function mysqlClient(url: string): Promise<Client> {
  const mysql = await import('mysql2/promise');
  const c = await mysql.createConnection({ uri: url, connectTimeout: 5000 });
  const rows = async (sql: string, params: unknown[] = []) =>
    (await c.query(sql, params))[0] as Record<string, unknown>[];
  return {
    async shape(name) {
      const columns = await rows(
        `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, COLUMN_TYPE AS y, IS_NULLABLE AS n FROM information_schema.COLUMNS
         WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION`,
        [name],
      );
      const extras = await rows(
        `SELECT (SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ?) AS triggers,
                (SELECT COUNT(*) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ?) AS routines,
                (SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ?) AS indexes`,
        [name, name, name],
      );
      const tables = [...new Set(columns.map((r) => String(r.t)))];
      return {
        migrated:
          tables.includes('__drizzle_migrations') && Number(extras[0]?.triggers) + Number(extras[0]?.routines) === 0,
        tables: tables.filter((t) => t !== '__drizzle_migrations'),
        fingerprint: JSON.stringify([columns, extras]),
      };
    },
    async empty(tables) {
      await c.query('SET FOREIGN_KEY_CHECKS = 0');
      for (const t of tables) await c.query(`DELETE FROM \`${t}\``);
      await c.query('SET FOREIGN_KEY_CHECKS = 1');
    },
    close: () => c.end(),
  };
}

async function postgresClient(url: string): Promise<Client> {
  const { default: postgres } = await import('postgres');
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  return {
    async shape() {
      const columns = await sql`
        SELECT table_schema AS s, table_name AS t, column_name AS c, data_type AS y, is_nullable AS n
        FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
        ORDER BY table_schema, table_name, ordinal_position`;
      const [extras] = await sql`
        SELECT (SELECT count(*) FROM information_schema.triggers)::int AS triggers,
               (SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                  WHERE n.nspname NOT IN ('pg_catalog', 'information_schema'))::int AS routines,
               (SELECT count(*) FROM pg_indexes WHERE schemaname NOT IN ('pg_catalog', 'information_schema'))::int AS indexes`;
      const tables = [...new Set(columns.map((r) => `"${r.s}"."${r.t}"`))];
      const journal = (t: string) => t.endsWith('"__drizzle_migrations"');
      return {
        migrated: tables.some(journal) && extras?.triggers === 0 && extras?.routines === 0,
        tables: tables.filter((t) => !journal(t)),
        fingerprint: JSON.stringify([[...columns], extras]),
      };
    },
    async empty(tables) {
      // One round trip; `replica` skips the foreign-key triggers while the tables are emptied in any order.
      await sql.unsafe(
        `BEGIN; SET LOCAL session_replication_role = replica; ${tables.map((t) => `DELETE FROM ${t};`).join(' ')} COMMIT;`,
      );
    },
    close: () => sql.end(),
  };
}
