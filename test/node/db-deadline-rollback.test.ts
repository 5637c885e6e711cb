import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, registerOwner } from '../support/api-flows.js';
import { type NodeHarness, nodeHarness } from '../support/node-harness.js';
import { type FreshDatabase, freshMysqlDatabase, freshPostgresDatabase } from '../support/server-databases.js';

/**
 * A write whose deadline (DATABASE_TIMEOUT_MS, one for the whole request)
 * passes while its transaction waits is answered 503, and is rolled back: it
 * must not commit later, once the database moves again. Another session holds
 * a lock on the articles table that lets reads through but makes the
 * create's INSERT wait, inside its transaction; the lock is
 * released only after the 503, then the test waits until the server's
 * sessions have all gone idle (the blocked transaction finished, one way or
 * the other) and counts the rows.
 */
interface Locker {
  /** Blocks writes to the table (reads pass) until `release`. */
  lockWrites(table: string): Promise<void>;
  release(): Promise<void>;
  /** The server's sessions on the database that are waiting, running or inside a transaction. */
  busy(): Promise<number>;
  count(table: string, column: string, value: string): Promise<number>;
  end(): Promise<void>;
}

async function postgresLocker(url: string): Promise<Locker> {
  const { default: postgres } = await import('postgres');
  const sql = postgres(url, { max: 2, onnotice: () => undefined });
  const holder = await sql.reserve();
  const [{ pid } = { pid: 0 }] = await holder<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  return {
    async lockWrites(table) {
      await holder`BEGIN`;
      await holder.unsafe(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
    },
    async release() {
      await holder`COMMIT`;
    },
    async busy() {
      const [row] = await sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND state <> 'idle'
          AND pid NOT IN (pg_backend_pid(), ${pid})`;
      return row!.n;
    },
    async count(table, column, value) {
      const [row] = await sql.unsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [
        value,
      ]);
      return row!.n;
    },
    async end() {
      holder.release();
      await sql.end();
    },
  };
}

async function mysqlLocker(url: string): Promise<Locker> {
  const mysql = await import('mysql2/promise');
  const holder = await mysql.createConnection({ uri: url });
  const probe = await mysql.createConnection({ uri: url });
  return {
    async lockWrites(table) {
      await holder.query(`LOCK TABLES ${table} READ`);
    },
    async release() {
      await holder.query('UNLOCK TABLES');
    },
    async busy() {
      // A session inside a transaction shows in innodb_trx even between statements.
      const [rows] = await probe.query(
        `SELECT COUNT(*) AS n FROM information_schema.processlist p
         WHERE p.db = DATABASE() AND p.id NOT IN (CONNECTION_ID(), ?)
           AND (p.command <> 'Sleep' OR p.id IN (SELECT trx_mysql_thread_id FROM information_schema.innodb_trx))`,
        [holder.threadId],
      );
      return Number((rows as { n: number }[])[0]!.n);
    },
    async count(table, column, value) {
      const [rows] = await probe.query(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`, [value]);
      return Number((rows as { n: number }[])[0]!.n);
    },
    async end() {
      await holder.end();
      await probe.end();
    },
  };
}

for (const [name, fresh, locker] of [
  ['PostgreSQL', freshPostgresDatabase, postgresLocker],
  ['MariaDB', freshMysqlDatabase, mysqlLocker],
] as const) {
  describe(`a write past its deadline (${name})`, () => {
    let db: FreshDatabase;
    let api: NodeHarness;
    let lock: Locker;
    let owner: string;

    beforeAll(async () => {
      db = await fresh();
      api = await nodeHarness({
        db: 'sqlite',
        storage: 'local',
        settings: { DATABASE_URL: db.url, DATABASE_TIMEOUT_MS: '10000' },
      });
      owner = (await registerOwner(api, 'deadline-owner@example.com')).token;
      await api.cleanup();
      // The same database, now with a short deadline.
      api = await nodeHarness({
        db: 'sqlite',
        storage: 'local',
        settings: { DATABASE_URL: db.url, DATABASE_TIMEOUT_MS: '800' },
      });
      lock = await locker(db.url);
    });
    afterAll(async () => {
      await lock?.end();
      await api?.cleanup();
      await db?.drop();
    });

    it('answers 503 with Retry-After and never commits the write afterwards', async () => {
      await lock.lockWrites('articles');
      const title = `Blocked ${name}`;
      const res = await api.request('/v1/articles', { method: 'POST', token: owner, json: { title } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      expect((await errorOf(res)).code).toBe('unavailable');
      // The write is still there, blocked inside its transaction.
      expect(await lock.busy()).toBeGreaterThan(0);

      await lock.release();
      await expect.poll(() => lock.busy(), { timeout: 10_000, interval: 100 }).toBe(0);
      expect(await lock.count('articles', 'title', title)).toBe(0);
      // The server itself is fine: the next write goes through.
      const next = await api.request('/v1/articles', { method: 'POST', token: owner, json: { title: 'After' } });
      expect(next.status).toBe(201);
    });

    it('a single-statement write it could not see through is a 503 that says it may have been saved', async () => {
      // Creating a webhook is one INSERT, its own commit: once sent it cannot be
      // taken back, so the answer waits for it (one more deadline) and, when it
      // still has none, must not claim that nothing was written.
      await lock.lockWrites('webhooks');
      const url = `https://example.com/hooks/${name}`;
      const res = await api.request('/v1/webhooks', {
        method: 'POST',
        token: owner,
        json: { url, events: ['article.created'] },
      });
      await lock.release();
      await expect.poll(() => lock.busy(), { timeout: 10_000, interval: 100 }).toBe(0);
      // Held past both deadlines: the answer cannot know, and must say so.
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      expect((await errorOf(res)).message).toMatch(/may or may not have been saved/);
      // It was saved once the lock went: that 503 did not claim otherwise.
      expect(await lock.count('webhooks', 'url', url)).toBe(1);
    });
  });
}
