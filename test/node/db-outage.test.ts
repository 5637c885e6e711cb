import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner } from '../support/api-flows.js';
import { type NodeHarness, nodeHarness } from '../support/node-harness.js';
import { type FreshDatabase, freshMysqlDatabase, freshPostgresDatabase } from '../support/server-databases.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

/**
 * The database stopped or unreachable mid-traffic is a 503 within
 * about 2 s (DATABASE_TIMEOUT_MS), the server keeps running, and it recovers
 * by itself once the database is back. A TCP proxy of our own stands between
 * the server and the shared database, which is never touched.
 */
for (const [name, fresh] of [
  ['PostgreSQL', freshPostgresDatabase],
  ['MariaDB', freshMysqlDatabase],
] as const) {
  describe(`database outage (${name})`, () => {
    let db: FreshDatabase;
    let proxy: TcpProxy;
    let api: NodeHarness;
    let owner: string;

    beforeAll(async () => {
      db = await fresh();
      const url = new URL(db.url);
      proxy = await startTcpProxy(Number(url.port));
      url.port = String(proxy.port);
      // db: 'sqlite' keeps the harness from making its own server database; the URL points at ours.
      api = await nodeHarness({
        db: 'sqlite',
        storage: 'local',
        settings: { DATABASE_URL: url.toString(), DATABASE_TIMEOUT_MS: '1500' },
      });
      owner = (await registerOwner(api, 'outage-owner@example.com')).token;
      await createArticle(api, owner, { title: 'Before the outage' });
    });
    afterAll(async () => {
      await api?.cleanup();
      await proxy?.close();
      await db?.drop();
    });

    const timed = async (path: string, token?: string) => {
      const started = Date.now();
      const res = await api.request(path, token ? { token } : {});
      return { res, ms: Date.now() - started };
    };

    it('answers 503 within 2 s while the server is stopped, then recovers by itself', async () => {
      proxy.cut();
      for (const path of ['/v1/articles', '/v1/sites']) {
        const { res, ms } = await timed(path);
        expect(res.status, path).toBe(503);
        expect((await errorOf(res)).code).toBe('unavailable');
        expect(ms, path).toBeLessThan(2000);
      }
      await proxy.restore();
      await expect
        .poll(async () => (await api.request('/v1/articles')).status, { timeout: 10_000, interval: 200 })
        .toBe(200);
    });

    it('answers 503 within 2 s while the network to it is black-holed, then recovers by itself', async () => {
      proxy.blackhole();
      const { res, ms } = await timed('/v1/articles?status=offline', owner);
      expect(res.status).toBe(503);
      expect(ms).toBeLessThan(2000);
      const login = await api.request('/v1/auth/login', {
        method: 'POST',
        json: { email: 'outage-owner@example.com', password: 'a long enough password' },
      });
      expect(login.status).toBe(503);
      await proxy.restore();
      await expect
        .poll(async () => (await api.request('/v1/articles', { token: owner })).status, {
          timeout: 15_000,
          interval: 250,
        })
        .toBe(200);
      const list = await (await api.request('/v1/articles', { token: owner })).json();
      expect(list.items.map((a: { title: string }) => a.title)).toContain('Before the outage');
    });
  });
}
