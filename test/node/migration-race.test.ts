import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { REPO_ROOT } from '../support/paths.js';
import { type FreshDatabase, freshMysqlDatabase, freshPostgresDatabase } from '../support/server-databases.js';
import { startServer } from '../support/server-process.js';
import { TABLES_CHILD_FIRST } from '../support/tables.js';

/**
 * Two servers (dist/node/server.mjs, real processes) started at the same
 * moment on one empty database: the migrations run under a lock (advisory on
 * PostgreSQL, GET_LOCK on MariaDB, an exclusive transaction on SQLite), so
 * both start, both stop cleanly, and every migration was applied once.
 */
const journalLength = (dialect: string) =>
  (
    JSON.parse(readFileSync(path.join(REPO_ROOT, 'drizzle', dialect, 'migrations/meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    }
  ).entries.length;

interface Target {
  name: string;
  dialect: 'sqlite' | 'mysql' | 'postgres';
  fresh(dir: string): Promise<FreshDatabase>;
  /** The hashes in the migration journal, and one row count per table (a missing table throws). */
  inspect(url: string): Promise<{ hashes: string[]; tables: number }>;
}

const targets: Target[] = [
  {
    name: 'SQLite',
    dialect: 'sqlite',
    fresh: async (dir) => ({ url: `sqlite:${path.join(dir, 'shared.db')}`, drop: async () => undefined }),
    async inspect(url) {
      const db = new Database(url.slice('sqlite:'.length), { readonly: true });
      try {
        const hashes = db.prepare('SELECT hash FROM __drizzle_migrations').pluck().all() as string[];
        for (const table of TABLES_CHILD_FIRST) db.prepare(`SELECT COUNT(*) FROM "${table}"`).get();
        return { hashes, tables: TABLES_CHILD_FIRST.length };
      } finally {
        db.close();
      }
    },
  },
  {
    name: 'PostgreSQL',
    dialect: 'postgres',
    fresh: () => freshPostgresDatabase(),
    async inspect(url) {
      const { default: postgres } = await import('postgres');
      const sql = postgres(url, { max: 1, onnotice: () => undefined });
      try {
        const rows = await sql<{ hash: string }[]>`SELECT hash FROM drizzle.__drizzle_migrations`;
        for (const table of TABLES_CHILD_FIRST) await sql.unsafe(`SELECT COUNT(*) FROM "${table}"`);
        return { hashes: rows.map((r) => r.hash), tables: TABLES_CHILD_FIRST.length };
      } finally {
        await sql.end();
      }
    },
  },
  {
    name: 'MariaDB',
    dialect: 'mysql',
    fresh: () => freshMysqlDatabase(),
    async inspect(url) {
      const mysql = await import('mysql2/promise');
      const connection = await mysql.createConnection({ uri: url });
      try {
        const [rows] = await connection.query('SELECT hash FROM __drizzle_migrations');
        for (const table of TABLES_CHILD_FIRST) await connection.query(`SELECT COUNT(*) FROM \`${table}\``);
        return { hashes: (rows as { hash: string }[]).map((r) => r.hash), tables: TABLES_CHILD_FIRST.length };
      } finally {
        await connection.end();
      }
    },
  },
];

describe('two instances starting together on an empty database', () => {
  let dir: string;
  beforeAll(async () => {
    await buildNode();
    dir = await mkdtemp(path.join(tmpdir(), 'cms-migration-race-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  for (const target of targets) {
    it(`${target.name}: both start, both stop with 0, each migration applied once`, async () => {
      const db = await target.fresh(dir);
      try {
        const env = { DATABASE_URL: db.url, JWT_SECRET: 'a shared secret of at least thirty-two characters' };
        // Each in its own directory (its data/), started in the same turn: neither waits for the other.
        const homes = await Promise.all(['a', 'b'].map((n) => mkdtemp(path.join(dir, `${target.dialect}-${n}-`))));
        const servers = await Promise.all(homes.map((home) => startServer(home, env)));
        for (const server of servers) expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
        expect(await Promise.all(servers.map((s) => s.stop('SIGTERM')))).toEqual([0, 0]);

        const { hashes, tables } = await target.inspect(db.url);
        expect(hashes).toHaveLength(journalLength(target.dialect));
        expect(new Set(hashes).size).toBe(hashes.length);
        expect(tables).toBeGreaterThan(10);
      } finally {
        await db.drop();
      }
    });
  }
});
