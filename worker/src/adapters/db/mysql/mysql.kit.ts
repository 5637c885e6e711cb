import { drizzle } from 'drizzle-orm/mysql2';
import { migrate } from 'drizzle-orm/mysql2/migrator';
import mysql from 'mysql2/promise';
import { unavailable } from '../shared/repository-support.js';
import { markingWrites, runDeadlineAware } from '../shared/request-deadline.js';
import { retryTransient } from '../shared/retry.js';
import { type SqlDb, type SqlKit, someInChain, type Tables } from '../shared/sql-kit.js';
import { isServerDatabaseUnavailable as isConnectionError } from '../shared/unavailable-errors.js';
import * as mysqlTables from './mysql.tables.js';

/** MySQL / MariaDB through a mysql2 pool (Node only). */

const errno = (e: Record<string, unknown>) => (typeof e.errno === 'number' ? e.errno : 0);

// ER_DUP_ENTRY, ER_DUP_ENTRY_WITH_KEY_NAME
const isUniqueViolation = (err: unknown) => someInChain(err, (e) => [1062, 1586].includes(errno(e)));
// ER_NO_REFERENCED_ROW(_2), ER_ROW_IS_REFERENCED(_2)
const isForeignKeyViolation = (err: unknown) => someInChain(err, (e) => [1216, 1217, 1451, 1452].includes(errno(e)));
// ER_LOCK_DEADLOCK, ER_LOCK_WAIT_TIMEOUT
const isTransient = (err: unknown) => someInChain(err, (e) => [1213, 1205].includes(errno(e)));

/** How long a starting instance waits for another one's migrations. */
const MIGRATION_LOCK_WAIT_S = 600;

/**
 * Runs the migrations under a named lock, so that instances starting together
 * (a rolling deploy, two servers on an empty database) apply them one after
 * the other. GET_LOCK is server-wide, so the name carries the database's; it
 * is held by one pooled connection and goes with it if that connection dies.
 */
async function migrateLocked(pool: mysql.Pool, run: () => Promise<void>) {
  const connection = await pool.getConnection();
  const name = "SHA1(CONCAT('edge-cms migrations ', DATABASE()))";
  try {
    const [rows] = await connection.query(`SELECT GET_LOCK(${name}, ${MIGRATION_LOCK_WAIT_S}) AS held`);
    if ((rows as { held: number | null }[])[0]?.held !== 1)
      throw new Error(`Another instance held the migration lock for ${MIGRATION_LOCK_WAIT_S} s`);
    try {
      await run();
    } finally {
      await connection.query(`SELECT RELEASE_LOCK(${name})`);
    }
  } finally {
    connection.release();
  }
}

export async function openMysqlKit(url: string, migrationsFolder: string, timeoutMs: number) {
  const pool = mysql.createPool({
    uri: url,
    // DATETIME has no zone: the session and the driver both speak UTC.
    timezone: 'Z',
    charset: 'utf8mb4',
    connectionLimit: 10,
    connectTimeout: timeoutMs,
    waitForConnections: true,
    enableKeepAlive: true,
  });
  pool.pool.on('connection', (connection) => {
    // Queued before any other command on this connection, so it runs first.
    // A failure here means a broken connection, which the next query reports.
    // group_concat_max_len: an article's 50 links of 40 bytes fit (orderedIdsSql); the default 1,024 truncates silently.
    connection.query("SET time_zone = '+00:00', group_concat_max_len = 65536", () => undefined);
  });
  const db = drizzle({ client: pool });
  try {
    await migrateLocked(pool, () => migrate(db, { migrationsFolder }));
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw isConnectionError(err) ? unavailable(err) : err;
  }
  const kit: SqlKit = {
    dialect: 'mysql',
    timeoutMs,
    db: markingWrites(db) as unknown as SqlDb,
    tables: mysqlTables as unknown as Tables,
    // mysql2 connects with CLIENT_FOUND_ROWS, so this counts matched rows.
    affectedRows: (result) => {
      const header = Array.isArray(result) ? result[0] : result;
      return (header as { affectedRows?: number } | undefined)?.affectedRows ?? 0;
    },
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
    prepare(query) {
      const prepared = query.prepare();
      return async (values) => prepared.execute(values);
    },
  };
  return { kit, close: () => pool.end() };
}
