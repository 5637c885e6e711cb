import { startTcpProxy } from '../../test/support/tcp-proxy.ts';
import { uploadPng } from './lib/fixtures.ts';
import { must, send } from './lib/http.ts';
import { isAlive, type OutageResult, outageRun, type RequestKind } from './lib/outage.ts';
import { freshPostgres, nodeServer, OWNER, registerOwner } from './lib/stack.ts';

/**
 * Step 4a/4b: the database, then the object store, become unreachable
 * behind a proxy of our own while traffic runs; then they come back.
 */

/** A fresh database of our own on the shared server: PostgreSQL via stack.ts, MariaDB via the test helper. */
export type ServerDialect = 'postgres' | 'mysql';

async function freshDatabase(dialect: ServerDialect): Promise<{ url: string; port: number; drop(): Promise<void> }> {
  if (dialect === 'postgres') return freshPostgres();
  const { freshMysqlDatabase } = await import('../../test/support/server-databases.ts');
  const db = await freshMysqlDatabase();
  return { ...db, port: Number(new URL(db.url).port || 3306) };
}

export type OutageMode = 'cut' | 'blackhole';

export interface DatabaseOutage extends OutageResult {
  mode: OutageMode;
  samePid: boolean;
  lastLog: string | null;
}

export async function databaseOutage(
  dialect: ServerDialect,
  mode: OutageMode,
  { outageMs, afterMs }: { outageMs: number; afterMs: number },
): Promise<DatabaseOutage> {
  const pg = await freshDatabase(dialect);
  const proxy = await startTcpProxy(pg.port);
  const url = new URL(pg.url);
  url.port = String(proxy.port);
  const server = await nodeServer(`Node + ${dialect} via proxy (${mode})`, { env: { DATABASE_URL: url.toString() } });
  try {
    const token = await registerOwner(server);
    const { article } = await must<{ article: { id: string } }>(server.url, 'POST', '/v1/articles', 201, {
      token,
      body: { title: 'outage' },
    });
    await must(server.url, 'POST', `/v1/articles/${article.id}/publish`, 200, { token });
    const auth = { authorization: `Bearer ${token}` };
    const kinds: RequestKind[] = [
      { name: 'public read', request: () => ({ path: `/v1/articles/${article.id}` }) },
      { name: 'public list', request: () => ({ path: '/v1/articles?limit=20' }) },
      { name: 'authenticated read', request: () => ({ path: '/v1/auth/me', headers: auth }) },
      {
        name: 'write',
        request: () => ({
          method: 'POST',
          path: '/v1/articles',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'during outage' }),
        }),
      },
      {
        name: 'login',
        request: () => ({
          method: 'POST',
          path: '/v1/auth/login',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(OWNER),
        }),
      },
      { name: 'readyz', request: () => ({ path: '/readyz' }) },
    ];
    const pid = server.pid;
    const result = await outageRun(server, {
      kinds,
      fail: () => (mode === 'cut' ? proxy.cut() : proxy.blackhole()),
      restore: () => proxy.restore(),
      beforeMs: 2000,
      outageMs,
      afterMs,
      ctx: { secrets: [server.jwtSecret], paths: [server.dir] },
    });
    const health = await send(server.url, { path: '/healthz' });
    const samePid = isAlive(pid) && health.status === 200;
    // When the server died, its last words say why.
    const lastLog = samePid
      ? null
      : server
          .log()
          .split('\n')
          .filter((l) => !l.startsWith('mail'))
          .slice(-12)
          .join('\n');
    return { mode, ...result, samePid, lastLog };
  } finally {
    await server.stop();
    await proxy.close();
    await pg.drop();
  }
}

/** Storage behind the proxy: uploads refused with 503 and no row without its blob; reads 503; recovery. */
interface StorageStep {
  what: string;
  status: number;
  ms: number;
  ok: boolean;
  body: string;
}

export interface StorageOutage {
  steps: StorageStep[];
  alive?: boolean;
}

export async function storageOutage(): Promise<StorageOutage> {
  const { startS3rver } = await import('../../test/support/s3rver.ts');
  const s3 = await startS3rver('reliability');
  const proxy = await startTcpProxy(Number(new URL(s3.endpoint).port));
  const endpoint = `http://127.0.0.1:${proxy.port}`;
  const server = await nodeServer('Node + SQLite + s3rver via proxy', {
    env: {
      STORAGE_URL: `s3://${s3.bucket}?endpoint=${encodeURIComponent(endpoint)}&region=${s3.region}&forcePathStyle=true`,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    },
  });
  const out: StorageOutage = { steps: [] };
  const step = (what: string, res: { status: number; ms: number; body: Buffer }, want: (status: number) => boolean) => {
    out.steps.push({
      what,
      status: res.status,
      ms: Math.round(res.ms),
      ok: want(res.status),
      body: res.body.toString('utf8').slice(0, 160),
    });
  };
  try {
    const token = await registerOwner(server);
    const { article } = await must<{ article: { id: string } }>(server.url, 'POST', '/v1/articles', 201, {
      token,
      body: { title: 'storage' },
    });
    type Image = { filename: string; url: string };
    const images = async () =>
      (await must<{ items: Image[] }>(server.url, 'GET', `/v1/articles/${article.id}/images?limit=100`, 200, { token }))
        .items;
    const first = await uploadPng(server.url, token, article.id);
    step('upload, storage up', first, (s) => s === 201);
    const stored: Image = JSON.parse(first.body.toString('utf8')).image;
    for (const [mode, label] of [
      ['cut', 'refused (reset)'],
      ['blackhole', 'black-holed'],
    ] as const) {
      if (mode === 'cut') proxy.cut();
      else proxy.blackhole();
      const rows = (await images()).length;
      const up = await uploadPng(server.url, token, article.id, undefined, 90_000);
      step(`upload, storage ${label}`, up, (s) => s === 503);
      step(
        `rows after the failed upload (${rows} before)`,
        { status: (await images()).length, ms: 0, body: Buffer.from('') },
        (n) => n === rows,
      );
      step(
        `read the stored image, storage ${label}`,
        await send(server.url, { path: new URL(stored.url, server.url).pathname, timeoutMs: 90_000 }),
        (s) => s === 503,
      );
      await proxy.restore();
    }
    step('upload after restore', await uploadPng(server.url, token, article.id), (s) => s === 201);
    step(
      'read after restore',
      await send(server.url, { path: new URL(stored.url, server.url).pathname }),
      (s) => s === 200,
    );
    // Every row's blob is there.
    for (const img of await images()) {
      step(
        `row ${img.filename} has its blob`,
        await send(server.url, { path: new URL(img.url, server.url).pathname }),
        (s) => s === 200,
      );
    }
    out.alive = (await send(server.url, { path: '/healthz' })).status === 200;
    return out;
  } finally {
    await server.stop();
    await proxy.close();
    await s3.stop();
  }
}
