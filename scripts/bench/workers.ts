import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Inspector } from './lib/inspector.ts';
import { type IsolateRun, profiledRuns, topFrames } from './lib/isolate-cpu.ts';
import { closeClient, type LoadTarget, type Throughput, throughputRounds } from './lib/load.ts';
import { cleanupNow, installExitHandlers, trackTempDir } from './lib/processes.ts';
import { appRenderer, seedDatabase } from './lib/seed.ts';
import { freshPaths, read } from './lib/worker-reads.ts';
import { copyD1ForFloor, startBareWorkers } from './lib/workers-bare.ts';
import { startWranglerDev, wrangler } from './lib/wrangler-dev.ts';

/**
 * Workers: the CPU time the real Worker spends per public read
 * and per list page, on a cache miss and on a cache hit, against a bare
 * Hono Worker answering the same JSON (scripts/bench/workers-baseline.ts),
 * and against the floors: the same answers from one Cache API read, and
 * from D1 with only a miss's own work (scripts/bench/workers-floor.ts).
 * All run under `wrangler dev` (local workerd, D1 in a temp directory);
 * the CPU is that of each one's workerd process (/proc), divided by the
 * answers. See docs/benchmarks.md.
 *
 * Also alone: `node scripts/bench/workers.ts [--quick]`.
 */

export type WorkersKey =
  | 'bareSingle'
  | 'bareList'
  | 'cacheApiSingle'
  | 'cacheApiList'
  | 'cacheOneSingle'
  | 'cacheOneList'
  | 'floorSingle'
  | 'floorList'
  | 'hitFloorSingle'
  | 'hitFloorList'
  | 'singleMiss'
  | 'singleHit'
  | 'listMiss'
  | 'listHit';

export interface WorkersResult {
  articles: number;
  runs: Record<WorkersKey, Throughput>;
  /** The Worker isolate's own CPU per request, from V8 profiles (lib/isolate-cpu.ts). */
  isolate: Record<WorkersKey, IsolateRun>;
  bytes: { single: number; list: number };
}

export interface WorkersConfig {
  articles: number;
  connections: number;
  seconds: number;
  rounds: number;
  warmup: number;
  pageSize: number;
  /** Seconds of profiled runs per target, over all rounds (isolate CPU). */
  profileSeconds: number;
  /** Bundle the Worker unminified, so that a profile's frames have names (`--profile`). */
  readableFrames?: boolean;
}

export async function measureWorkers(
  cfg: WorkersConfig,
  tmp: string,
  log: (msg: string) => void,
): Promise<WorkersResult> {
  const dir = path.join(tmp, 'workers');
  const state = path.join(dir, 'state');
  const assets = path.join(dir, 'assets');
  mkdirSync(assets, { recursive: true });
  // The admin is not measured here: an empty asset directory spares building it.
  writeFileSync(path.join(assets, '404.html'), '<!doctype html><title>404</title>');

  // D1 as `npm run deploy` makes it (the migrations), then the articles straight into its SQLite file.
  let t0 = performance.now();
  await wrangler(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state], path.join(dir, 'migrate.log'));
  const d1Dir = path.join(state, 'v3/d1/miniflare-D1DatabaseObject');
  const d1Files = readdirSync(d1Dir).filter((f) => /^[0-9a-f]{64}\.sqlite$/.test(f));
  if (d1Files.length !== 1) throw new Error(`expected one local D1 database in ${d1Dir}, found ${d1Files.length}`);
  // Every article online: each one is a distinct public URL for the misses.
  // With the html every write stores beside the body: a miss reads it and renders nothing.
  const seeded = seedDatabase(path.join(d1Dir, d1Files[0]!), {
    articles: cfg.articles,
    onlineShare: 1,
    renderHtml: await appRenderer(),
  });
  const ids = seeded.onlineIdsNewestFirst;
  const floorState = copyD1ForFloor(state, dir);
  log(
    `Workers: D1 migrated and ${seeded.articles.toLocaleString('en')} articles seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  t0 = performance.now();
  const worker = await startWranglerDev({
    name: 'the Worker',
    args: [
      '--assets',
      assets,
      '--persist-to',
      state,
      '--var',
      `JWT_SECRET:${randomBytes(32).toString('hex')}`,
      '--var',
      'PUBLIC_URL:http://127.0.0.1',
      // Mail is never sent here; the Worker refuses to start without a mailer otherwise.
      '--var',
      'ALLOW_LOG_MAILER:true',
      // Kept for the whole run: an entry that expired mid-run would make a hit a miss.
      '--var',
      'PUBLIC_CACHE_SECONDS:3600',
      ...(cfg.readableFrames ? ['--minify=false'] : []),
    ],
    logFile: path.join(dir, 'worker.log'),
    readyPath: '/readyz',
  });
  log(
    `Workers: the Worker (workerd pid ${worker.workerPid}) on ${worker.url}, ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  // Hits cycle through 200 articles spread over the table; the bare Worker answers the median-sized one.
  const n = Math.min(200, ids.length);
  const sample = Array.from({ length: n }, (_, i) => ids[Math.floor((i * ids.length) / n)]!);
  const singlePaths = sample.map((id) => `/v1/articles/${id}`);
  const listPath = `/v1/articles?limit=${cfg.pageSize}`;
  const answers: string[] = [];
  for (const p of singlePaths) {
    const first = await read(worker, p);
    if ((JSON.parse(first.body) as { article?: { id?: string } }).article?.id !== p.slice(p.lastIndexOf('/') + 1))
      throw new Error(`Worker GET ${p}: not that article`);
    answers.push(first.body);
  }
  answers.sort((a, b) => a.length - b.length);
  const articleDoc = answers[Math.floor(answers.length / 2)]!;
  const list = await read(worker, listPath);
  // What each row claims, checked in the Worker's own access lines: a repeated URL is answered before
  // routing (`/*`), a new one by the route.
  const again = await read(worker, singlePaths[0]!);
  const listAgain = await read(worker, listPath);
  if (again.route !== '/*' || listAgain.route !== '/*')
    throw new Error(`a repeated read was not a cache hit (routes ${again.route}, ${listAgain.route})`);

  // Misses: articles and list pages (a cursor from every article) nobody has asked for.
  const rest = ids.filter((id) => !sample.includes(id));
  const singleMiss = freshPaths(
    rest.map((id) => `/v1/articles/${id}`),
    'single-article misses',
  );
  const listMiss = freshPaths(
    rest.slice(0, -cfg.pageSize).map((id) => `${listPath}&cursor=${Buffer.from(id).toString('base64url')}`),
    'list-page misses',
  );
  const probe = await read(worker, singleMiss.fresh());
  const listProbe = await read(worker, listMiss.fresh());
  if (probe.route !== '/v1/articles/{id}' || listProbe.route !== '/v1/articles')
    throw new Error(`a new URL was not answered by the route (routes ${probe.route}, ${listProbe.route})`);

  const { bare, floor } = await startBareWorkers({
    dir,
    floorState,
    articleDoc,
    listDoc: list.body,
    // The median answer's own article: the floor reads it from D1.
    articlePath: `/v1/articles/${(JSON.parse(articleDoc) as { article: { id: string } }).article.id}`,
    listPath,
    log,
  });
  // The floors read what misses read: articles and list pages all over the table (no cache: repeats are fine).
  const floorSingles = rest.slice(0, 2000).map((id) => `/v1/articles/${id}`);
  const floorLists = rest.slice(0, 2000).map((id) => `${listPath}&cursor=${Buffer.from(id).toString('base64url')}`);

  log(
    `Workers: load: ${cfg.connections} connections; ${cfg.warmup} s warm-up each, then ${cfg.rounds} rounds, ${cfg.seconds} s per target in all`,
  );
  const targets: LoadTarget<WorkersKey>[] = [
    { key: 'bareSingle', origin: bare.url, paths: singlePaths, pid: bare.workerPid },
    { key: 'bareList', origin: bare.url, paths: [listPath], pid: bare.workerPid },
    { key: 'cacheApiSingle', origin: bare.url, paths: [`/cache-api${singlePaths[0]}`], pid: bare.workerPid },
    { key: 'cacheApiList', origin: bare.url, paths: [`/cache-api${listPath}`], pid: bare.workerPid },
    { key: 'cacheOneSingle', origin: bare.url, paths: [`/cache-api-one${singlePaths[0]}`], pid: bare.workerPid },
    { key: 'cacheOneList', origin: bare.url, paths: [`/cache-api-one${listPath}`], pid: bare.workerPid },
    { key: 'floorSingle', origin: floor.url, paths: floorSingles, pid: floor.workerPid },
    { key: 'floorList', origin: floor.url, paths: floorLists, pid: floor.workerPid },
    // The hit floor reads what hits read: the same URLs, each a Cache API read once stored.
    { key: 'hitFloorSingle', origin: floor.url, paths: singlePaths.map((p) => `/hit${p}`), pid: floor.workerPid },
    { key: 'hitFloorList', origin: floor.url, paths: [`/hit${listPath}`], pid: floor.workerPid },
    { key: 'singleHit', origin: worker.url, paths: singlePaths, pid: worker.workerPid },
    { key: 'singleMiss', origin: worker.url, paths: [], pid: worker.workerPid, fresh: singleMiss.fresh },
    { key: 'listHit', origin: worker.url, paths: [listPath], pid: worker.workerPid },
    { key: 'listMiss', origin: worker.url, paths: [], pid: worker.workerPid, fresh: listMiss.fresh },
  ];
  // Connected before the rounds (an idle DevTools client, no domain enabled): after them, wrangler's
  // inspector proxy stopped answering its /json list, every try timing out (two runs in a row here).
  const inspectors = new Map<string, Inspector>();
  for (const w of [bare, floor, worker]) inspectors.set(w.url, await Inspector.open(w.inspectorUrl));
  const onRun = (what: string) => process.stdout.isTTY && process.stdout.write(`\r\x1b[Kbench:   Workers ${what}`);
  const runs = await throughputRounds<WorkersKey>(targets, {
    connections: cfg.connections,
    seconds: cfg.seconds,
    warmupSeconds: cfg.warmup,
    rounds: cfg.rounds,
    // A miss stores its answer after responding (waitUntil): that CPU belongs to the miss.
    settleAfterEach: true,
    onRun,
  });
  // Apart from the rounds: the sampling profiler slows the process down, which would skew its CPU figures.
  const isolate = await profiledRuns<WorkersKey>(
    targets.map((t) => ({ ...t, inspector: inspectors.get(t.origin)! })),
    { connections: cfg.connections, seconds: cfg.profileSeconds, rounds: cfg.rounds, onRun },
  );
  for (const inspector of inspectors.values()) inspector.close();
  if (process.stdout.isTTY) process.stdout.write('\r\x1b[K');
  singleMiss.check();
  listMiss.check();
  // Still hits at the end: nothing expired or was evicted meanwhile.
  if ((await read(worker, singlePaths[1] ?? singlePaths[0]!)).route !== '/*')
    throw new Error('after the load, a repeated read was no longer a cache hit');
  closeClient();
  await bare.stop();
  await floor.stop();
  await worker.stop();
  return {
    articles: seeded.articles,
    runs,
    isolate,
    bytes: { single: Buffer.byteLength(articleDoc), list: Buffer.byteLength(list.body) },
  };
}

/** What a row is read against: the bare Worker, and its floor (a miss: the D1 floor; a hit: the hit floor, one Cache API read). */
export function workersBases(k: WorkersKey): { bare: WorkersKey | null; floor: WorkersKey | null } {
  const kind = k.startsWith('single') ? 'Single' : k.startsWith('list') ? 'List' : null;
  if (kind === null) return { bare: null, floor: null };
  return {
    bare: `bare${kind}`,
    floor: k.endsWith('Miss') ? `floor${kind}` : `hitFloor${kind}`,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  installExitHandlers();
  const tmp = trackTempDir(mkdtempSync(path.join(os.tmpdir(), 'edge-cms-bench-workers-')));
  const readableFrames = process.argv.includes('--profile');
  const cfg: WorkersConfig = quick
    ? {
        articles: 5_000,
        connections: 10,
        seconds: 6,
        rounds: 2,
        warmup: 2,
        pageSize: 20,
        profileSeconds: 4,
        readableFrames,
      }
    : {
        articles: 20_000,
        connections: 10,
        seconds: 7.5,
        rounds: 3,
        warmup: 1.5,
        pageSize: 20,
        profileSeconds: 6,
        readableFrames,
      };
  measureWorkers(cfg, tmp, (m) => process.stdout.write(`bench: ${m}\n`)).then(
    (w) => {
      const cpu = (k: WorkersKey) => w.runs[k].cpuUsPerRequest ?? Number.NaN;
      const own = (k: WorkersKey) => w.isolate[k].usPerRequest;
      const ratio = (v: number, b: number | null) => (b === null ? '' : `×${(v / b).toFixed(2)}`);
      console.log('target           req/s   process CPU/req   isolate CPU/req  × bare  × floor  (samples)');
      for (const k of Object.keys(w.runs) as WorkersKey[]) {
        const { bare, floor } = workersBases(k);
        console.log(
          `${k.padEnd(15)} ${Math.round(w.runs[k].rps).toString().padStart(6)}   ${cpu(k).toFixed(0).padStart(9)} µs   ${own(k).toFixed(1).padStart(10)} µs` +
            `  ${ratio(own(k), bare && own(bare)).padEnd(6)}  ${ratio(own(k), floor && own(floor)).padEnd(7)}  (${w.isolate[k].samples} at ${w.isolate[k].intervalUs} µs)`,
        );
      }
      if (readableFrames)
        for (const k of Object.keys(w.isolate) as WorkersKey[]) console.log(`\n${k}:\n${topFrames(w.isolate[k])}`);
      cleanupNow();
      process.exit(0);
    },
    (err) => {
      console.error(`\nbench failed: ${err instanceof Error ? err.message : String(err)}`);
      cleanupNow();
      process.exit(1);
    },
  );
}
