import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNode, NODE_BUNDLE } from '../build-node.ts';
import { formatAdminBytes } from './admin-bytes.ts';
import {
  compareCodecs,
  makeSourceJpeg,
  measureImageServing,
  SOURCE,
  seedImage,
  TARGET_WIDTH,
  variantCostBySize,
} from './images.ts';
import { adminStep, bundleStep, workersStep } from './late-steps.ts';
import { walkToDeepPage } from './lib/deep-page.ts';
import { goalRows } from './lib/goals.ts';
import { closeClient, interleavedLatency, type Latency, throughputRounds } from './lib/load.ts';
import { benchOptions } from './lib/options.ts';
import { installExitHandlers, runBench, startServer } from './lib/processes.ts';
import { type BenchResults, formatReport } from './lib/report.ts';
import { sampleReads, storedAnswers } from './lib/sample-reads.ts';
import { appRenderer, explainHotQueries, seedDatabase } from './lib/seed.ts';
import { benchWorkspace } from './lib/workspace.ts';
import { measureStartup } from './startup.ts';
import { driftRuns, startUncachedServers } from './uncached.ts';

/**
 * `npm run bench`: the public read paths of the real Node server against a
 * bare Hono baseline measured in the same run, on 100,000 seeded articles,
 * plus the Worker bundle size. Prints ratios and goals; exits 0 whether or
 * not the goals are met (it reports, it does not judge), non-zero when
 * something could not be run. See docs/benchmarks.md.
 */

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
  // The admin's files first: wrangler (the Workers rows, the bundle) serves them and the admin step measures them.
  if (!(opt['skip-workers'] && opt['skip-bundle'] && opt['skip-admin'])) {
    const admin = spawnSync(process.execPath, [path.join(root, 'scripts/build-admin.ts')], { stdio: 'inherit' });
    if (admin.status !== 0) throw new Error('the admin build failed');
  }
  if (!opt.server && (await buildNode())) log('built dist/node/server.mjs');
  const serverName = path.relative(root, serverBundle) || serverBundle;

  const { tmp, dbFile, serverEnv, serverOpts } = benchWorkspace('edge-cms-bench-', {
    script: serverBundle,
    // The defaults plus the benchmark's 400 px.
    env: { IMAGE_VARIANT_WIDTHS: `160,320,${TARGET_WIDTH},640,960,1280,1920` },
  });

  // 1. Let the server create the schema (its migrations), then seed directly.
  const t0 = performance.now();
  const migrating = await startServer(serverOpts('the Node server (migrating)'));
  await migrating.stop();
  log(`schema created by the server in ${t((performance.now() - t0) / 1000)}`);
  const seeded = seedDatabase(dbFile, {
    articles: cfg.articles,
    onlineShare: cfg.onlineShare,
    renderHtml: await appRenderer(),
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
  const { uncached, floor, twins, pgServer, floorPg } = await startUncachedServers({
    serverOpts,
    dbFile,
    pgUrl: opt['skip-pg'] ? null : opt['pg-url']!,
    lateCleanups,
    log,
  });

  // Single reads cycle through 200 online articles; the baseline answers the median-sized one (lib/sample-reads.ts).
  const { sampleIds, sampleSlugs, notModified, docFile } = await sampleReads(server.url, onlineIds, tmp, log);
  const size = cfg.pageSize;
  const listPath = `/v1/articles?limit=${size}`;
  // The list's two answers, with and without bylines, as stored bytes the baseline sends: their floor.
  const stored = await storedAnswers(server.url, { list: listPath, listAuthors: `${listPath}&include=authors` }, tmp);
  log(
    `page 1: ${stored.bytes.list.toLocaleString('en')} bytes, with bylines ${stored.bytes.listAuthors.toLocaleString('en')}`,
  );

  const baseline = await startServer({
    name: 'the baseline server',
    script: path.join(root, 'scripts/bench/baseline-server.ts'),
    env: { BASELINE_DOC: docFile, BASELINE_STORED: stored.storedFile },
    cwd: tmp,
    logFile: path.join(tmp, 'baseline.log'),
  });
  log(`baseline pid ${baseline.pid} on ${baseline.url}`);

  // 3. The deep page, by following nextCursor from page 1 (lib/deep-page.ts).
  const { deepPath, result: deepPageResult } = await walkToDeepPage(server.url, {
    onlineIds,
    online: seeded.online,
    size,
    requested: cfg.deepPage,
  });
  const deepPage = deepPageResult.page;
  log(
    `walked ${(deepPage - 1).toLocaleString('en')} cursors to page ${deepPage.toLocaleString('en')} in ${t(deepPageResult.walkSeconds)}; cursor matches the computed one`,
  );

  // 4. Throughput, the four targets interleaved in rounds.
  const singlePaths = sampleIds.map((id) => `/v1/articles/${id}`);
  // The same articles by slug, in any site (the index probed once per site).
  const slugPaths = sampleSlugs.map((slug) => `/v1/articles/slug/${slug}`);
  // What a list of teasers shows (docs/api.md, fields=).
  const LEAN_FIELDS = 'id,title,slug,excerpt,publishedAt,featureImage';
  log(
    `load: ${cfg.connections} connections; ${cfg.warmup} s warm-up each, then ${cfg.rounds} rounds, ${cfg.seconds} s per target in all`,
  );
  const runs = await throughputRounds(
    [
      { key: 'baseline', origin: baseline.url, paths: ['/'], pid: baseline.pid },
      { key: 'single', origin: server.url, paths: singlePaths, pid: server.pid },
      { key: 'list', origin: server.url, paths: [listPath], pid: server.pid },
      { key: 'listAuthors', origin: server.url, paths: [`${listPath}&include=authors`], pid: server.pid },
      { key: 'listLean', origin: server.url, paths: [`${listPath}&fields=${LEAN_FIELDS}`], pid: server.pid },
      { key: 'storedList', origin: baseline.url, paths: [stored.storedPaths.list], pid: baseline.pid },
      { key: 'storedListAuthors', origin: baseline.url, paths: [stored.storedPaths.listAuthors], pid: baseline.pid },
      { key: 'deepList', origin: server.url, paths: [deepPath], pid: server.pid },
      { key: 'singleUncached', origin: uncached.url, paths: singlePaths, pid: uncached.pid },
      { key: 'slugUncached', origin: uncached.url, paths: slugPaths, pid: uncached.pid },
      { key: 'floor', origin: floor.url, paths: singlePaths, pid: floor.pid },
      { key: 'singleUncachedTwin', origin: twins.uncached.url, paths: singlePaths, pid: twins.uncached.pid },
      { key: 'floorTwin', origin: twins.floor.url, paths: singlePaths, pid: twins.floor.pid },
      { key: 'listUncached', origin: uncached.url, paths: [listPath], pid: uncached.pid },
      { key: 'floorList', origin: floor.url, paths: [listPath], pid: floor.pid },
      ...(notModified.length > 0
        ? [{ key: 'notModified' as const, origin: server.url, paths: notModified, pid: server.pid }]
        : []),
      ...(pgServer
        ? [
            { key: 'singlePg' as const, origin: pgServer.url, paths: singlePaths, pid: pgServer.pid },
            { key: 'slugPg' as const, origin: pgServer.url, paths: slugPaths, pid: pgServer.pid },
          ]
        : []),
      ...(floorPg ? [{ key: 'floorPg' as const, origin: floorPg.url, paths: singlePaths, pid: floorPg.pid }] : []),
      // The same conditional reads on PostgreSQL (PUBLIC_URL is set: the same answers, the same ETags).
      ...(pgServer && notModified.length > 0
        ? [{ key: 'notModifiedPg' as const, origin: pgServer.url, paths: notModified, pid: pgServer.pid }]
        : []),
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
  for (const s of [uncached, floor, twins.uncached, twins.floor, pgServer, floorPg]) await s?.stop();
  await lateCleanup(); // drops the PostgreSQL schema

  log(
    `latency: page 1 and page ${deepPage} in turn on one connection (${cfg.warmup} s warm-up + ${cfg.latencySeconds} s)`,
  );
  const [lat1, latDeep] = (await interleavedLatency(server.url, [listPath, deepPath], {
    seconds: cfg.latencySeconds,
    warmupSeconds: cfg.warmup,
  })) as [Latency, Latency];
  // Image serving: the original against a stored variant of it (images.ts).
  const { made, cachedOnce, runs: imageRuns } = await measureImageServing(server, imageFile, cfg, log);
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

  // With the Node servers stopped: the Workers rows, the Worker bundle, the admin's budgets (late-steps.ts).
  const workers = await workersStep(
    opt['skip-workers'],
    {
      articles: cfg.workersArticles,
      connections: cfg.connections,
      // A Worker answers far fewer requests per second than the Node server, and a run counts only the
      // answers completed in it: the quick run's 1 s rounds could end with none on a busy machine.
      seconds: Math.max(cfg.seconds, 3 * cfg.rounds),
      rounds: cfg.rounds,
      warmup: Math.max(2, cfg.warmup),
      pageSize: size,
      profileSeconds: Math.max(4, cfg.seconds * 0.8),
    },
    tmp,
    log,
  );
  const bundle = await bundleStep(opt['skip-bundle'], tmp, log);
  const admin = await adminStep(opt['skip-admin'], opt.server ? serverBundle : undefined, log);

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
    ...(bundle.value ? { bundle: bundle.value } : {}),
    ...(admin.value ? { admin: admin.value } : {}),
    ...(workers.value ? { workers: workers.value } : {}),
    rows: goalRows({
      runs,
      lat1,
      latDeep,
      deepPage,
      pageSize: size,
      bundle: bundle.value,
      images,
      admin: admin.value,
      drift,
      startup,
      workers: workers.value,
    }),
    totalSeconds: (performance.now() - began) / 1000,
  };
  console.log(`\n${formatReport(results)}`);
  if (admin.value) console.log(formatAdminBytes(admin.value));
  if (opt.json) writeFileSync(path.resolve(opt.json), `${JSON.stringify(results, null, 2)}\n`);
  for (const failed of [workers, bundle, admin]) if (failed.error) throw failed.error;
}

runBench(main, lateCleanup);
