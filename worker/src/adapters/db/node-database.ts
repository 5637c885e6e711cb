import path from 'node:path';
import type { ActivityLogStore } from '../../ports/activity-log.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import { createSqlActivityLogStore } from './shared/activity-log.store.js';
import { createSqlRateLimiter } from './shared/rate-limit.store.js';
import type { SqlKit } from './shared/sql-kit.js';

export type NodeDialect = 'sqlite' | 'mysql' | 'postgres';

export interface NodeDatabase {
  /** The dialect's kit: the repositories are built on it (app/services.ts `buildRepositories`). */
  kit: SqlKit;
  dialect: NodeDialect;
  /**
   * Budgets kept in this database (GCRA, shared by every instance using it).
   * Offered on SQLite too; the wiring may prefer memory there.
   */
  rateLimiter: RateLimiter;
  /** The activity log in this database: what Workers use (D1); Node keeps an NDJSON file by default. */
  activityLog(maxBytes: number): ActivityLogStore;
  close(): Promise<void>;
}

export interface OpenNodeDatabaseOptions {
  /** The folder holding `sqlite/`, `mysql/` and `postgres/`, each with its `migrations/`. */
  migrationsRoot: string;
  /**
   * MySQL/PostgreSQL: the deadline of all the database work of one request
   * together (shared/request-deadline.ts), of one call outside a request, and
   * of opening a connection (DATABASE_TIMEOUT_MS). Default 1500: with the
   * work around it, an outage is answered within 2 s.
   */
  timeoutMs?: number;
}

export const DEFAULT_DATABASE_TIMEOUT_MS = 1500;

interface Target {
  dialect: NodeDialect;
  open(migrationsFolder: string, timeoutMs: number): Promise<{ kit: SqlKit; close(): Promise<void> }>;
}

/**
 * `sqlite:PATH`, `mysql://…` (or `mariadb://…`), `postgres://…` /
 * `postgresql://…`. Drivers are imported on demand so that a SQLite
 * installation never loads mysql2 or postgres.js. The error never repeats the
 * URL: it may hold a password.
 */
function targetOf(url: string): Target {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === '') throw new Error('DATABASE_URL: sqlite: needs a file path, as in sqlite:./data/cms.db');
    return {
      dialect: 'sqlite',
      open: async (folder) => (await import('./sqlite/better-sqlite3.kit.js')).openSqliteKit(file, folder),
    };
  }
  if (/^(mysql|mariadb):\/\//.test(url)) {
    const mysqlUrl = url.replace(/^mariadb:/, 'mysql:');
    return {
      dialect: 'mysql',
      open: async (folder, timeoutMs) =>
        (await import('./mysql/mysql.kit.js')).openMysqlKit(mysqlUrl, folder, timeoutMs),
    };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    return {
      dialect: 'postgres',
      open: async (folder, timeoutMs) =>
        (await import('./postgres/postgres.kit.js')).openPostgresKit(url, folder, timeoutMs),
    };
  }
  throw new Error('DATABASE_URL must start with sqlite:, mysql://, mariadb://, postgres:// or postgresql://');
}

/**
 * Connects, applies the pending migrations, and hands back the dialect's kit.
 * An unreachable server rejects with DomainError('unavailable').
 */
export async function openNodeDatabase(url: string, options: OpenNodeDatabaseOptions): Promise<NodeDatabase> {
  const target = targetOf(url);
  const { kit, close } = await target.open(
    path.join(options.migrationsRoot, target.dialect, 'migrations'),
    options.timeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS,
  );
  return {
    kit,
    rateLimiter: createSqlRateLimiter(kit),
    activityLog: (maxBytes) => createSqlActivityLogStore(kit, maxBytes),
    dialect: target.dialect,
    close,
  };
}
