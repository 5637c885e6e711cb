import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { buildNode } from '../build-node.ts';
import { closeClient, get, type LoadTarget, throughputRounds } from './lib/load.ts';
import { installExitHandlers, runBench, startServer } from './lib/processes.ts';
import { appRenderer, seedDatabase } from './lib/seed.ts';
import { benchWorkspace } from './lib/workspace.ts';

/**
 * The project against Ghost (`node scripts/bench/ghost.ts --ghost DIR`, DIR
 * a Ghost install: docs/benchmarks.md says how to make one): the same
 * published articles, seeded by the project's seeder and posted to Ghost
 * through its Admin API, read by id, by slug and as a list page of 15 from
 * our server without its read cache and from Ghost's Content API, in
 * interleaved rounds; CPU per request of each process, and ours as a share
 * of Ghost's (the goal: ≤ 0.1 on every read). Not part of `npm run bench`:
 * it needs Ghost, which takes minutes to install.
 */
const { values: opt } = parseArgs({
  options: {
    ghost: { type: 'string' },
    /** About half are online: the articles both serve. */
    articles: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '3' },
  },
});
const GOAL = 0.1;
const GHOST_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'ghost-server.ts');
const log = (msg: string) => process.stdout.write(`bench: ${msg}\n`);
installExitHandlers();

interface Online {
  title: string;
  slug: string;
  html: string;
  publishedAt: number;
  id: string;
}

/** Ghost's owner, a session and a Content API key, through the Admin API as its admin app does it. */
async function ghostAccess(url: string): Promise<{ admin: typeof fetch; contentKey: string }> {
  const email = 'bench@example.com';
  // Ghost refuses a password that holds the e-mail's name, the blog's title or a common word.
  const password = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64url');
  const call =
    (cookie?: string) =>
    (p: string | URL | Request, init: RequestInit = {}) =>
      fetch(`${url}/ghost/api/admin${p}`, {
        ...init,
        headers: { 'content-type': 'application/json', origin: url, ...(cookie ? { cookie } : {}) },
      });
  const anonymous = call();
  const json = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body) });
  const setup = await anonymous(
    '/authentication/setup/',
    json({ setup: [{ name: 'Bench', email, password, blogTitle: 'Bench' }] }),
  );
  if (setup.status !== 201) throw new Error(`Ghost's setup: ${setup.status} ${await setup.text()}`);
  const session = await anonymous('/session/', json({ username: email, password }));
  const cookie = session.headers.get('set-cookie')?.split(';')[0];
  if (session.status !== 201 || !cookie) throw new Error(`Ghost's session: ${session.status} ${await session.text()}`);
  const admin = call(cookie) as typeof fetch;
  const made = await admin('/integrations/?include=api_keys', json({ integrations: [{ name: 'Bench' }] }));
  const keys = ((await made.json()) as { integrations: { api_keys: { type: string; secret: string }[] }[] })
    .integrations[0]?.api_keys;
  const contentKey = keys?.find((k) => k.type === 'content')?.secret;
  if (!contentKey) throw new Error(`Ghost's integration: ${made.status}, no Content API key`);
  return { admin, contentKey };
}

/** Posts each article to Ghost (a few at a time), published at its own date; Ghost's id for each. */
async function postAll(admin: typeof fetch, online: Online[]): Promise<Map<string, { id: string; slug: string }>> {
  const ghostOf = new Map<string, { id: string; slug: string }>();
  let next = 0;
  const worker = async () => {
    while (next < online.length) {
      const a = online[next++]!;
      const res = await admin('/posts/?source=html', {
        method: 'POST',
        body: JSON.stringify({
          posts: [
            { title: a.title, slug: a.slug, html: a.html, status: 'published', published_at: new Date(a.publishedAt) },
          ],
        }),
      });
      const post = ((await res.json()) as { posts?: { id: string; slug: string }[] }).posts?.[0];
      if (res.status !== 201 || !post) throw new Error(`Ghost refused the post ${a.slug}: ${res.status}`);
      ghostOf.set(a.id, post);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return ghostOf;
}

async function main() {
  const ghostDir = opt.ghost && path.resolve(opt.ghost);
  if (!ghostDir || !existsSync(path.join(ghostDir, 'index.js')))
    throw new Error('--ghost DIR: a Ghost install (its index.js and node_modules), as docs/benchmarks.md makes one');
  if (await buildNode()) log('built dist/node/server.mjs');
  const { tmp, dbFile, serverOpts } = benchWorkspace('edge-cms-bench-ghost-');
  await (await startServer(serverOpts('the Node server (migrating)'))).stop();
  const seeded = seedDatabase(dbFile, { articles: Number(opt.articles), renderHtml: await appRenderer() });
  const db = new Database(dbFile, { readonly: true });
  const online = db
    .prepare<[], Online>(
      `select id, title, slug, html, published_at as publishedAt from articles where status = 'online' order by published_at`,
    )
    .all();
  db.close();
  log(`seeded ${seeded.articles.toLocaleString('en')} articles, ${online.length.toLocaleString('en')} online`);

  const ours = await startServer(serverOpts('the Node server, read cache off', { PUBLIC_READ_CACHE: 'off' }));
  const content = path.join(tmp, 'ghost-content');
  cpSync(path.join(ghostDir, 'content'), content, { recursive: true });
  const ghost = await startServer({
    ...serverOpts('Ghost', { GHOST_DIR: ghostDir, GHOST_CONTENT: content }, GHOST_SCRIPT),
    readyPath: '/ghost/api/admin/site/',
    timeoutMs: 180_000,
  });
  log(`our server pid ${ours.pid}, Ghost pid ${ghost.pid} on ${ghost.url}`);
  const { admin, contentKey } = await ghostAccess(ghost.url);
  const started = performance.now();
  const ghostOf = await postAll(admin, online);
  log(
    `posted ${ghostOf.size.toLocaleString('en')} articles to Ghost in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );

  // 200 articles spread over the table, the same on both sides.
  const n = Math.min(200, online.length);
  const sample = Array.from({ length: n }, (_, i) => online[Math.floor((i * online.length) / n)]!);
  const key = `key=${contentKey}`;
  const reads = {
    byId: {
      ours: sample.map((a) => `/v1/articles/${a.id}`),
      ghost: sample.map((a) => `/ghost/api/content/posts/${ghostOf.get(a.id)!.id}/?${key}`),
    },
    bySlug: {
      ours: sample.map((a) => `/v1/articles/slug/${a.slug}`),
      ghost: sample.map((a) => `/ghost/api/content/posts/slug/${ghostOf.get(a.id)!.slug}/?${key}`),
    },
    list: { ours: ['/v1/articles?limit=15'], ghost: [`/ghost/api/content/posts/?limit=15&${key}`] },
  };
  for (const [name, r] of Object.entries(reads))
    for (const [origin, p] of [
      [ours.url, r.ours[0]!],
      [ghost.url, r.ghost[0]!],
    ] as const) {
      const res = await get(origin, p);
      if (res.status !== 200) throw new Error(`${name}: GET ${p.split('?')[0]} answered ${res.status}`);
    }
  type Key = `${keyof typeof reads}${'Ours' | 'Ghost'}`;
  const targets: LoadTarget<Key>[] = Object.entries(reads).flatMap(([name, r]) => [
    { key: `${name}Ours` as Key, origin: ours.url, paths: r.ours, pid: ours.pid },
    { key: `${name}Ghost` as Key, origin: ghost.url, paths: r.ghost, pid: ghost.pid },
  ]);
  const runs = await throughputRounds(targets, {
    connections: 10,
    seconds: Number(opt.seconds),
    warmupSeconds: 2,
    rounds: Number(opt.rounds),
  });
  closeClient();
  const row = (label: string, mine: number, theirs: number) => {
    const ratio = mine / theirs;
    return `${label.padEnd(44)} ${mine.toFixed(0).padStart(7)} µs ${theirs.toFixed(0).padStart(7)} µs  ${ratio.toFixed(3).padStart(6)}  ≤ ${GOAL}  ${ratio <= GOAL ? 'PASS' : 'MISS'}`;
  };
  console.log(`\n${'read, CPU per request'.padEnd(44)} ${'ours'.padStart(10)} ${'Ghost'.padStart(10)}   ratio   goal`);
  for (const [name, label] of [
    ['byId', 'GET an article by id'],
    ['bySlug', 'GET an article by slug'],
    ['list', 'GET a list page of 15'],
  ] as const) {
    const [mine, theirs] = [runs[`${name}Ours`], runs[`${name}Ghost`]];
    console.log(row(label, mine.cpuUsPerRequest ?? Number.NaN, theirs.cpuUsPerRequest ?? Number.NaN));
  }
  console.log(
    `req/s: ${targets.map((t) => `${t.key} ${Math.round(runs[t.key].rps).toLocaleString('en')}`).join(', ')}; bytes per answer: ${targets.map((t) => `${t.key} ${runs[t.key].bytesPerResponse}`).join(', ')}`,
  );
}

runBench(main);
