import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DbFixtures } from './db-contract.js';
import { TABLES_CHILD_FIRST } from './tables.js';

/**
 * A private database per test file on each Node dialect, plus the raw access
 * the contract suites need (fixtures for tables without a port, and wiping
 * between tests). Servers that cannot be reached make the file fail, never skip.
 */
export interface NodeDbHarness {
  /** What openNodeDatabase is given. */
  url: string;
  fixtures: DbFixtures;
  /** Raw query for assertions about the stored schema. */
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  wipe(): Promise<void>;
  destroy(): Promise<void>;
}

export const TEST_MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
export const TEST_PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const MIGRATIONS_ROOT = path.resolve(import.meta.dirname, '../../drizzle');

// TEST_DB_TAG (letters, digits, _) goes into every name: whose databases these are, on a shared server.
const DB_TAG = /^[a-z0-9_]{1,16}$/.test(process.env.TEST_DB_TAG ?? '') ? `${process.env.TEST_DB_TAG}_` : '';
const freshName = () => `cms_test_${DB_TAG}${randomBytes(6).toString('hex')}`;

function sqlFixtures(
  run: (sql: string, params: unknown[]) => Promise<unknown>,
  mark: (i: number) => string,
  now: unknown,
): DbFixtures {
  const p = [1, 2, 3, 4].map(mark);
  return {
    insertSite: async (id) =>
      void (await run(
        `INSERT INTO sites (id, name, base_url, description, created_at, updated_at) VALUES (${p[0]}, ${p[1]}, 'https://example.com', NULL, ${p[2]}, ${p[3]})`,
        [id, `Site ${id}`, now, now],
      )),
    insertAuthor: async (id) =>
      void (await run(
        `INSERT INTO authors (id, name, slug, bio, avatar_url, created_at, updated_at) VALUES (${p[0]}, 'Author', ${p[1]}, NULL, NULL, ${p[2]}, ${p[3]})`,
        [id, `author-${id}`, now, now],
      )),
  };
}

export async function sqliteHarness(): Promise<NodeDbHarness> {
  const { default: Database } = await import('better-sqlite3');
  const dir = mkdtempSync(path.join(tmpdir(), 'cms-sqlite-'));
  // A not-yet-existing sub-directory: openNodeDatabase must create it.
  const file = path.join(dir, 'nested', 'cms.db');
  let raw: InstanceType<typeof Database> | undefined;
  const connection = () => {
    raw ??= new Database(file);
    raw.pragma('busy_timeout = 5000');
    raw.pragma('foreign_keys = ON');
    return raw;
  };
  const run = async (sql: string, params: unknown[]) =>
    connection()
      .prepare(sql)
      .run(...params);
  return {
    url: `sqlite:${file}`,
    fixtures: sqlFixtures(run, () => '?', Date.now()),
    query: async (sql, params = []) =>
      connection()
        .prepare(sql)
        .all(...params) as Record<string, unknown>[],
    async wipe() {
      for (const table of TABLES_CHILD_FIRST) await run(`DELETE FROM ${table}`, []);
    },
    async destroy() {
      raw?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function mysqlHarness(): Promise<NodeDbHarness> {
  const mysql = await import('mysql2/promise');
  const name = freshName();
  const admin = await mysql.createConnection({ uri: TEST_MYSQL_URL, connectTimeout: 5000 });
  // Deliberately without a character set: the migrations must set utf8mb4 themselves.
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_MYSQL_URL);
  url.pathname = `/${name}`;
  const conn = await mysql.createConnection({ uri: url.toString(), timezone: 'Z', charset: 'utf8mb4' });
  const run = async (sql: string, params: unknown[]) => (await conn.query(sql, params))[0];
  return {
    url: url.toString(),
    fixtures: sqlFixtures(run, () => '?', '2026-11-25 21:00:00.000'),
    query: async (sql, params = []) => (await run(sql, params)) as Record<string, unknown>[],
    async wipe() {
      for (const table of TABLES_CHILD_FIRST) await run(`DELETE FROM ${table}`, []);
    },
    async destroy() {
      await conn.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    },
  };
}

export async function postgresHarness(): Promise<NodeDbHarness> {
  const { default: postgres } = await import('postgres');
  const name = freshName();
  const admin = postgres(TEST_PG_URL, { max: 1, onnotice: () => undefined, connect_timeout: 5 });
  await admin.unsafe(`CREATE SCHEMA ${name}`);
  const url = new URL(TEST_PG_URL);
  url.searchParams.set('search_path', name);
  const client = postgres(url.toString(), { max: 2, onnotice: () => undefined });
  const run = async (sql: string, params: unknown[]) => client.unsafe(sql, params as never[]);
  return {
    url: url.toString(),
    fixtures: sqlFixtures(run, (i) => `$${i}`, '2026-11-25T21:00:00.000Z'),
    query: async (sql, params = []) => [...(await run(sql, params))] as Record<string, unknown>[],
    async wipe() {
      await run(`TRUNCATE ${TABLES_CHILD_FIRST.join(', ')}`, []);
    },
    async destroy() {
      await client.end({ timeout: 5 });
      await admin.unsafe(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      await admin.end({ timeout: 5 });
    },
  };
}
