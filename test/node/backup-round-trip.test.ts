import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { createOwner } from '../browser/admin-helpers.js';
import { JPEG_400x300 } from '../support/images.js';
import { REPO_ROOT } from '../support/paths.js';
import { type FreshDatabase, freshPostgresDatabase } from '../support/server-databases.js';
import { type ServerProcess, startServer } from '../support/server-process.js';
import { startWranglerDev } from '../support/wrangler-dev.js';

const CLI = path.join(REPO_ROOT, 'dist/node/cli.mjs');
const OWNER = 'owner@example.com';

/** The operator's tool, as `npm run cms` runs it, against one installation's settings. */
function cms(cwd: string, env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', CMS_APP_ROOT: REPO_ROOT, ...env },
    encoding: 'utf8',
  });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

async function login(server: { url: string }, email: string, password: string): Promise<string> {
  const res = await fetch(`${server.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

const api = async (server: { url: string }, token: string, method: string, route: string, json?: unknown) => {
  const res = await fetch(`${server.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(json) : undefined,
  });
  expect(res.status, `${method} ${route}: ${res.status}`).toBeLessThan(300);
  return (await res.json()) as { site: { id: string }; author: { id: string }; article: { id: string } };
};

/**
 * What an archive holds but for when it was made, the importing owner's own
 * row, and articles' stored html: a cache of the body that an import leaves
 * to the first read to render.
 */
async function content(file: string) {
  const lines = gunzipSync(await readFile(file))
    .toString('utf8')
    .split('\n')
    .filter(Boolean);
  return lines
    .map((l) => JSON.parse(l) as { kind: string; table?: string; row?: Record<string, unknown> })
    .filter((r) => r.kind === 'blob' || (r.kind === 'row' && r.table !== 'users'))
    .map((r) => {
      if (r.table !== 'articles' || !r.row) return r;
      const { html: _html, ...row } = r.row;
      return { ...r, row };
    });
}

/**
 * One archive carried SQLite → PostgreSQL → D1, through the real servers and
 * the command-line tool (docs/backups.md, "Moving between targets"): each
 * installation serves the same content, and exports the same archive.
 */
describe('export and import across targets (SQLite → PostgreSQL → D1)', () => {
  let dir: string;
  let sqlite: ServerProcess;
  let postgres: ServerProcess;
  let pg: FreshDatabase;
  let workers: Awaited<ReturnType<typeof startWranglerDev>>;
  const sqliteEnv = () => ({ DATABASE_URL: 'sqlite:./data/cms.db', STORAGE_URL: 'file:./data/uploads' });
  const jwt = randomBytes(32).toString('base64url');

  beforeAll(async () => {
    await buildNode();
    dir = await mkdtemp(path.join(tmpdir(), 'cms-round-trip-'));
    pg = await freshPostgresDatabase();
  }, 120_000);
  afterAll(async () => {
    await sqlite?.stop();
    await postgres?.stop();
    await workers?.cleanup();
    await pg?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the same content on each, and exports the same archive', async () => {
    // 1. SQLite: the owner made with the tool, content through the API, exported over HTTP.
    const made = cms(dir, { ...sqliteEnv(), JWT_SECRET: jwt }, 'create-owner', '--email', OWNER);
    expect(made.status, made.err).toBe(0);
    const password = /Password \(change it after signing in\): (\S+)/.exec(made.out)![1]!;
    sqlite = await startServer(dir, { ...sqliteEnv(), JWT_SECRET: jwt });
    const t1 = await login(sqlite, OWNER, password);
    const site = (await api(sqlite, t1, 'POST', '/v1/sites', { name: 'Blog', baseUrl: 'https://blog.example' })).site;
    const author = (await api(sqlite, t1, 'POST', '/v1/authors', { name: 'Ada', slug: 'ada' })).author;
    await api(sqlite, t1, 'POST', '/v1/redirects', { from: '/travelling/', to: '/travel', status: 308 });
    const article = (
      await api(sqlite, t1, 'POST', '/v1/articles', {
        title: 'Travelling',
        body: '**far**',
        format: 'markdown',
        siteId: site.id,
        authorIds: [author.id],
      })
    ).article;
    const form = new FormData();
    form.set('file', new Blob([JPEG_400x300 as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), 'p.jpg');
    const up = await fetch(`${sqlite.url}/v1/articles/${article.id}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t1}` },
      body: form,
    });
    expect(up.status).toBe(201);
    const imagePath = new URL(((await up.json()) as { image: { url: string } }).image.url, sqlite.url).pathname;
    await api(sqlite, t1, 'PUT', `/v1/articles/${article.id}/seo`, { metaTitle: 'Far away' });
    await api(sqlite, t1, 'POST', `/v1/articles/${article.id}/publish`);
    // The publication kept a revision; a draft of the next change waits.
    await api(sqlite, t1, 'PUT', `/v1/articles/${article.id}/draft`, { title: 'Travelling on' });
    const fromSqlite = path.join(dir, 'sqlite.ndjson.gz');
    const exported = cms(dir, {}, 'export', '--url', sqlite.url, '--token', t1, '--out', fromSqlite);
    expect(exported.status, exported.err).toBe(0);

    // 2. PostgreSQL: a new owner with the tool, the archive imported over HTTP, exported again.
    const pgEnv = { DATABASE_URL: pg.url, STORAGE_URL: `file:${path.join(dir, 'pg-uploads')}`, JWT_SECRET: jwt };
    const pgOwner = cms(dir, pgEnv, 'create-owner', '--email', 'second@example.com');
    expect(pgOwner.status, pgOwner.err).toBe(0);
    postgres = await startServer(dir, pgEnv);
    const t2 = await login(postgres, 'second@example.com', /: (\S+)$/m.exec(pgOwner.out)![1]!);
    const imported = cms(dir, {}, 'import', '--url', postgres.url, '--token', t2, '--file', fromSqlite);
    expect(imported.status, imported.err).toBe(0);
    expect(JSON.parse(imported.out).imported).toMatchObject({
      images: 1,
      rows: { articles: 1, articleDrafts: 1, articleRevisions: 1 },
    });
    const fromPostgres = path.join(dir, 'postgres.ndjson.gz');
    expect(cms(dir, {}, 'export', '--url', postgres.url, '--token', t2, '--out', fromPostgres).status).toBe(0);

    // 3. D1 and R2 under wrangler dev: the owner registered through the API.
    workers = await startWranglerDev();
    const t3 = await createOwner(workers, 'third@example.com');
    const body = await readFile(fromPostgres);
    const res = await fetch(`${workers.url}/v1/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t3}`, 'content-type': 'application/gzip' },
      body,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const fromD1 = path.join(dir, 'd1.ndjson.gz');
    expect(cms(dir, {}, 'export', '--url', workers.url, '--token', t3, '--out', fromD1).status).toBe(0);

    const original = await content(fromSqlite);
    expect(original.filter((r) => r.kind === 'blob')).toHaveLength(1);
    expect(await content(fromPostgres)).toEqual(original);
    expect(await content(fromD1)).toEqual(original);

    // What readers get is the same on all three.
    const read = async (server: { url: string }) => {
      const a = (
        (await (await fetch(`${server.url}/v1/articles/${article.id}`)).json()) as { article: Record<string, unknown> }
      ).article;
      const image = new Uint8Array(await (await fetch(`${server.url}${imagePath}`)).arrayBuffer());
      const moved = (await (await fetch(`${server.url}/v1/redirects/lookup?path=/travelling`)).json()) as {
        redirect: Record<string, unknown>;
      };
      const { title, body, status, publishedAt, siteId } = a;
      return { title, body, status, publishedAt, siteId, image, redirect: moved.redirect };
    };
    const expected = await read(sqlite);
    expect(expected.image.length).toBeGreaterThan(1000);
    expect(expected.redirect).toMatchObject({ from: '/travelling', to: '/travel', status: 308 });
    expect(await read(postgres)).toEqual(expected);
    expect(await read(workers)).toEqual(expected);
  }, 300_000);
});
