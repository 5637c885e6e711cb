import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNode, NODE_BUNDLE } from '../build-node.ts';
import { type AdminBytes, formatAdminBytes, measureAdminBytes } from './admin-bytes.ts';
import { BUDGET_BYTES, bundleSize } from './bundle-size.ts';
import { compareCodecs, makeSourceJpeg, SOURCE, seedImage, TARGET_WIDTH, variantCostBySize } from './images.ts';
import { type BundleResult, goalRows } from './lib/goals.ts';
import {
  closeClient,
  get,
  getJson,
  interleavedLatency,
  type Latency,
  type LoadPath,
  throughputRounds,
} from './lib/load.ts';
import { benchOptions } from './lib/options.ts';
import { cleanupNow, installExitHandlers, onCleanup, startServer, trackTempDir } from './lib/processes.ts';
import { type BenchResults, formatReport } from './lib/report.ts';
import { appRenderer, explainHotQueries, seedDatabase } from './lib/seed.ts';
import { measureStartup } from './startup.ts';
import { driftRuns, startUncachedServers } from './uncached.ts';
import { measureWorkers, type WorkersResult } from './workers.ts';

/**
 * `npm run bench`: the public read paths of the real Node server against a
 * bare Hono baseline measured in the same run, on 100,000 seeded articles,
 * plus the Worker bundle size. Prints ratios and goals; exits 0 whether or
 * not the goals are met (it reports, it does not judge), non-zero when
 * something could not be run. See docs/benchmarks.md.
 */

/** The parts of the article answers the benchmark checks. */
interface OneArticle {
  article?: { id: string; status: string };
}
interface ArticlePage {
  items: { id: string; status: string }[];
  nextCursor: string | null;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const { opt, cfg } = benchOptions();

const log = (msg: string) => process.stdout.write(`bench: ${msg}\n`);
const t = (s: number) => `${s.toFixed(1)} s`;

installExitHandlers();

/** Asynchronous clean-up (the PostgreSQL schema), run after the child processes are gone. */
const lateCleanups: (() => Promise<void>)[] = [];
const lateCleanup = async () => {
  await Promise.allSettled(lateCleanups.splice(0).map((fn) => fn()));
};

/** A child command whose output we keep; tracked so Ctrl-C takes it down too. */
function runCommand(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    onCleanup(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let out = '';
    const collect = (d: Buffer) => {
      out += d;
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${cmd} ${args.join(' ')} failed (${code ?? signal}):\n${out.slice(-3000)}`)),
    );
  });
}

async function main(): Promise<void> {
  const began = performance.now();
  const context = {
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
    },
    config: cfg,
  };

  const serverBundle = opt.server ? path.resolve(opt.server) : NODE_BUNDLE;
  if (!opt.server && (await buildNode())) log('built dist/node/server.mjs');
  const serverName = path.relative(root, serverBundle) || serverBundle;

  const tmp = trackTempDir(mkdtempSync(path.join(os.tmpdir(), 'edge-cms-bench-')));
  const dbFile = path.join(tmp, 'cms.db');
  const serverEnv = {
    DATABASE_URL: `sqlite:${dbFile}`,
    STORAGE_URL: `file:${path.join(tmp, 'uploads')}`,
    JWT_SECRET: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex'),
    PUBLIC_URL: 'http://127.0.0.1',
    // The defaults plus the benchmark's 400 px.
    IMAGE_VARIANT_WIDTHS: `160,320,${TARGET_WIDTH},640,960,1280,1920`,
  };
  const serverOpts = (name: string, env: NodeJS.ProcessEnv = {}) => ({
    name,
    script: serverBundle,
    env: { ...serverEnv, ...env },
    cwd: tmp,
    logFile: path.join(tmp, 'server.log'),
    readyPath: '/readyz',
  });

  // 1. Let the server create the schema (its migrations), then seed directly.
  let t0 = performance.now();
  const migrating = await startServer(serverOpts('the Node server (migrating)'));
  await migrating.stop();
  log(`schema created by the server in ${t((performance.now() - t0) / 1000)}`);
  const seeded = seedDatabase(dbFile, {
    articles: cfg.articles,
    onlineShare: cfg.onlineShare,
    renderHtml: await appRenderer(root),
  });
  const { onlineIdsNewestFirst: onlineIds } = seeded;
  const seed = {
    articles: seeded.articles,
    online: seeded.online,
    bodyBytesAvg: seeded.bodyBytesAvg,
    seconds: seeded.seconds,
  };
  log(
    `seeded ${seeded.articles.toLocaleString('en')} articles (${seeded.online.toLocaleString('en')} online) in ${t(seeded.seconds)}`,
  );
  const queryPlans = explainHotQueries(dbFile);
  const sourceJpeg = await makeSourceJpeg();
  const imageFile = seedImage(dbFile, path.join(tmp, 'uploads'), sourceJpeg);
  log(`seeded a ${SOURCE.width}×${SOURCE.height} JPEG original (${sourceJpeg.length.toLocaleString('en')} bytes)`);

  // 2. The real server on the seeded database.
  const server = await startServer(serverOpts('the Node server'));
  log(`server pid ${server.pid} on ${server.url}`);
  // The same database without the in-process read cache, and the same rows on PostgreSQL.
  const { uncached, pgServer } = await startUncachedServers({
    serverOpts,
    dbFile,
    pgUrl: opt['skip-pg'] ? null : opt['pg-url']!,
    lateCleanups,
    log,
  });

  // Single reads cycle through 200 online articles spread over the table;
  // the baseline's document is the median-sized answer among them.
  const sampleIds = Array.from(
    { length: Math.min(200, onlineIds.length) },
    (_, i) => onlineIds[Math.floor((i * onlineIds.length) / Math.min(200, onlineIds.length))]!,
  );
  const answers: { json: OneArticle; bytes: number }[] = [];
  const conditional: LoadPath[] = [];
  for (const id of sampleIds) {
    const { json, bytes, etag } = await getJson<OneArticle>(server.url, `/v1/articles/${id}`);
    if (json.article?.id !== id || json.article.status !== 'online')
      throw new Error(`GET /v1/articles/${id}: unexpected answer`);
    answers.push({ json, bytes });
    if (etag) conditional.push({ path: `/v1/articles/${id}`, headers: { 'If-None-Match': etag } });
  }
  // 304s are measured where public reads carry an ETag (issue 17, item 1).
  const notModified = conditional.length === sampleIds.length ? conditional : [];
  if (notModified.length > 0) {
    const first = notModified[0] as Exclude<LoadPath, string>;
    const res = await get(server.url, first.path, first.headers);
    if (res.status !== 304) throw new Error(`GET ${first.path} with If-None-Match: ${res.status}, not 304`);
  } else log('public reads carry no ETag: the 304 row is left out');
  answers.sort((a, b) => a.bytes - b.bytes);
  const median = answers[Math.floor(answers.length / 2)];
  if (!median) throw new Error('no online article to read');
  const docFile = path.join(tmp, 'baseline.json');
  writeFileSync(docFile, JSON.stringify(median.json));

  const baseline = await startServer({
    name: 'the baseline server',
    script: path.join(root, 'scripts/bench/baseline-server.ts'),
    env: { BASELINE_DOC: docFile },
    cwd: tmp,
    logFile: path.join(tmp, 'baseline.log'),
  });
  log(`baseline pid ${baseline.pid} on ${baseline.url}`);

  // 3. Find the deep page by following nextCursor from page 1, and check the
  // cursor against the one computed from the seeded ids and the cursor
  // format (base64url of the previous page's last id).
  const size = cfg.pageSize;
  const fullPages = Math.floor(seeded.online / size);
  const deepPage = Math.min(cfg.deepPage, fullPages);
  if (deepPage < 2) throw new Error(`only ${seeded.online} online articles: not enough for two pages of ${size}`);
  t0 = performance.now();
  let cursor: string | null = null;
  for (let page = 1; page < deepPage; page++) {
    const { json }: { json: ArticlePage } = await getJson<ArticlePage>(
      server.url,
      `/v1/articles?limit=${size}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    if (json.items.length !== size || !json.nextCursor)
      throw new Error(`page ${page}: ${json.items.length} items, nextCursor ${json.nextCursor}`);
    if (json.items.some((a) => a.status !== 'online'))
      throw new Error(`page ${page} of the public list holds offline articles`);
    cursor = json.nextCursor;
  }
  const walkSeconds = (performance.now() - t0) / 1000;
  const computed = Buffer.from(onlineIds[(deepPage - 1) * size - 1] ?? '').toString('base64url');
  if (computed !== cursor)
    throw new Error(`the cursor reached by walking (${cursor}) is not the computed one (${computed})`);
  const deepPath = `/v1/articles?limit=${size}&cursor=${cursor}`;
  const deep = await getJson<ArticlePage>(server.url, deepPath);
  if (deep.json.items[0]?.id !== onlineIds[(deepPage - 1) * size])
    throw new Error(`page ${deepPage} does not start where expected`);
  const deepPageResult = {
    page: deepPage,
    requested: cfg.deepPage,
    fullPages,
    rowsBefore: (deepPage - 1) * size,
    walkSeconds,
    note:
      deepPage < cfg.deepPage
        ? `the public list has ${fullPages.toLocaleString('en')} full pages of ${size} (${seeded.online.toLocaleString('en')} online articles); page ${deepPage.toLocaleString('en')} is the deepest and its rows are the oldest in the table`
        : null,
  };
  log(
    `walked ${(deepPage - 1).toLocaleString('en')} cursors to page ${deepPage.toLocaleString('en')} in ${t(walkSeconds)}; cursor matches the computed one`,
  );

  // 4. Throughput, the four targets interleaved in rounds.
  const singlePaths = sampleIds.map((id) => `/v1/articles/${id}`);
  const listPath = `/v1/articles?limit=${size}`;
  log(
    `load: ${cfg.connections} connections; ${cfg.warmup} s warm-up each, then ${cfg.rounds} rounds, ${cfg.seconds} s per target in all`,
  );
  const runs = await throughputRounds(
    [
      { key: 'baseline', origin: baseline.url, paths: ['/'], pid: baseline.pid },
      { key: 'single', origin: server.url, paths: singlePaths, pid: server.pid },
      { key: 'list', origin: server.url, paths: [listPath], pid: server.pid },
      { key: 'deepList', origin: server.url, paths: [deepPath], pid: server.pid },
      { key: 'singleUncached', origin: uncached.url, paths: singlePaths, pid: uncached.pid },
      ...(notModified.length > 0
        ? [{ key: 'notModified' as const, origin: server.url, paths: notModified, pid: server.pid }]
        : []),
      ...(pgServer ? [{ key: 'singlePg' as const, origin: pgServer.url, paths: singlePaths, pid: pgServer.pid }] : []),
    ],
    {
      connections: cfg.connections,
      seconds: cfg.seconds,
      warmupSeconds: cfg.warmup,
      rounds: cfg.rounds,
      onRun: (what) => process.stdout.isTTY && process.stdout.write(`\r\x1b[Kbench:   ${what}`),
    },
  );
  if (process.stdout.isTTY) process.stdout.write('\r\x1b[K');

  // Drift: one uninterrupted run per uncached read, last segment against the first.
  const drift = await driftRuns({ sqlite: uncached, pg: pgServer }, singlePaths, cfg, log);
  await uncached.stop();
  await pgServer?.stop();
  await lateCleanup(); // drops the PostgreSQL schema

  log(
    `latency: page 1 and page ${deepPage} in turn on one connection (${cfg.warmup} s warm-up + ${cfg.latencySeconds} s)`,
  );
  const [lat1, latDeep] = (await interleavedLatency(server.url, [listPath, deepPath], {
    seconds: cfg.latencySeconds,
    warmupSeconds: cfg.warmup,
  })) as [Latency, Latency];
  // Image serving: the original against a stored variant of it. The first
  // request makes the variant (timed), the rest read it from storage.
  const originalPath = `/static/uploadedImages/${imageFile}`;
  const variantPath = `${originalPath}?w=${TARGET_WIDTH}`;
  const made = await get(server.url, variantPath);
  if (made.status !== 200) throw new Error(`GET ${variantPath}: ${made.status} ${made.body.slice(0, 300)}`);
  const cachedOnce = await get(server.url, variantPath);
  log(
    `variant made on first request in ${made.ms.toFixed(0)} ms; served from storage in ${cachedOnce.ms.toFixed(1)} ms`,
  );
  const imageRuns = await throughputRounds(
    [
      { key: 'original', origin: server.url, paths: [originalPath], pid: server.pid },
      { key: 'variant', origin: server.url, paths: [variantPath], pid: server.pid },
    ],
    { connections: cfg.connections, seconds: cfg.seconds, warmupSeconds: cfg.warmup, rounds: cfg.rounds },
  );
  closeClient();

  await baseline.stop();
  await server.stop();

  // Start-up to the first 200 (a public article read) and RSS 5 s after the
  // spawn, on the seeded database, against the bare baseline's.
  log(`start-up and resting RSS: ${cfg.startupRepeats} start(s) of each, alternating`);
  const startup = await measureStartup(
    [
      {
        key: 'server',
        script: serverBundle,
        env: serverEnv,
        cwd: tmp,
        path: singlePaths[0]!,
        logFile: path.join(tmp, 'server.log'),
      },
      {
        key: 'baseline',
        script: path.join(root, 'scripts/bench/baseline-server.ts'),
        env: { BASELINE_DOC: docFile },
        cwd: tmp,
        path: '/',
        logFile: path.join(tmp, 'baseline.log'),
      },
    ],
    { repeats: cfg.startupRepeats },
  );

  // Codecs on their own, once the servers are down: photon (the app's path) and sharp.
  log(
    `codecs: ${SOURCE.width}×${SOURCE.height} JPEG → ${TARGET_WIDTH} px JPEG and WebP, the app's (photon, libwebp) vs sharp`,
  );
  const codecs = await compareCodecs(sourceJpeg, { iterations: opt.quick ? 3 : 7 });
  log("codecs: a 320 px JPEG variant by the original's size");
  const costBySize = await variantCostBySize({ iterations: opt.quick ? 3 : 5 });
  const images = { firstRequestMs: made.ms, cachedRequestMs: cachedOnce.ms, runs: imageRuns, codecs, costBySize };

  // The Worker's CPU per public read and list page, cache miss and hit, against a bare Hono Worker
  // (scripts/bench/workers.ts), with the Node servers stopped.
  let workersError: unknown = null;
  let workers: WorkersResult | undefined;
  if (!opt['skip-workers']) {
    try {
      workers = await measureWorkers(
        {
          articles: cfg.workersArticles,
          connections: cfg.connections,
          // A Worker answers far fewer requests per second than the Node server, and a run counts only the
          // answers completed in it: the quick run's 1 s rounds could end with none on a busy machine.
          seconds: Math.max(cfg.seconds, 3 * cfg.rounds),
          rounds: cfg.rounds,
          warmup: Math.max(2, cfg.warmup),
          pageSize: size,
        },
        tmp,
        log,
      );
    } catch (err) {
      workersError = err;
    }
  }

  // 5. The Worker bundle, as `wrangler deploy --dry-run` builds it.
  let bundleError: unknown = null;
  let bundle: BundleResult | undefined;
  if (!opt['skip-bundle']) {
    log('wrangler deploy --dry-run');
    const outdir = path.join(tmp, 'worker');
    mkdirSync(outdir);
    try {
      await runCommand(path.join(root, 'node_modules/.bin/wrangler'), ['deploy', '--dry-run', '--outdir', outdir], {
        WRANGLER_SEND_METRICS: 'false',
      });
      const b = bundleSize(outdir);
      if (b.files.length === 0) throw new Error(`wrangler wrote no .js or .wasm files to ${outdir}`);
      bundle = { ...b, budget: BUDGET_BYTES };
    } catch (err) {
      bundleError = err;
    }
  }

  // 6. The admin's JS before the login form is usable, on the editor route, and the media grid's
  // bytes for 24 phone photos, in Chromium (scripts/bench/admin-bytes.ts, admin-budgets.ts).
  let adminError: unknown = null;
  let admin: AdminBytes | undefined;
  if (!opt['skip-admin']) {
    log('admin budgets: Chromium signs in on /login, opens the editor and the media grid');
    try {
      admin = await measureAdminBytes(opt.server ? { serverScript: serverBundle } : {});
    } catch (err) {
      adminError = err;
    }
  }

  const results: BenchResults = {
    ...context,
    server: serverName,
    seed,
    queryPlans,
    deepPage: deepPageResult,
    runs,
    latency: { page1: lat1, deep: latDeep },
    drift,
    startup,
    images,
    ...(bundle ? { bundle } : {}),
    ...(admin ? { admin } : {}),
    ...(workers ? { workers } : {}),
    rows: goalRows({ runs, lat1, latDeep, deepPage, pageSize: size, bundle, images, admin, drift, startup, workers }),
    totalSeconds: (performance.now() - began) / 1000,
  };
  console.log(`\n${formatReport(results)}`);
  if (admin) console.log(formatAdminBytes(admin));
  if (opt.json) writeFileSync(path.resolve(opt.json), `${JSON.stringify(results, null, 2)}\n`);
  if (workersError) throw workersError;
  if (bundleError) throw bundleError;
  if (adminError) throw adminError;
}

main().then(
  async () => {
    cleanupNow();
    await lateCleanup();
    process.exit(0);
  },
  async (err) => {
    console.error(`\nbench failed: ${err instanceof Error ? err.message : String(err)}`);
    cleanupNow();
    await lateCleanup();
    process.exit(1);
  },
);
