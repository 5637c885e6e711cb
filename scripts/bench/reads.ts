import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildNode } from '../build-node.ts';
import { bundleFloorParts } from './lib/floor-parts.ts';
import { closeClient, get, type LoadTarget, throughputRounds } from './lib/load.ts';
import { installExitHandlers, runBench, startServer } from './lib/processes.ts';
import { sampleReads } from './lib/sample-reads.ts';
import { appRenderer, seedDatabase } from './lib/seed.ts';
import { bundleServiceParts } from './lib/service-parts.ts';
import { benchWorkspace } from './lib/workspace.ts';
import { startUncachedServers } from './uncached.ts';

/**
 * The uncached Node reads alone (`node scripts/bench/reads.ts`), the step
 * of `npm run bench` to run while working on the read path: the server
 * without its read cache on SQLite (and on PostgreSQL unless --skip-pg),
 * the floor server (floor-server.ts), the service floor (service-floor-server.ts:
 * the app's own articles service in a one-route Hono app), in interleaved rounds — the single
 * read, page 1 of the list, and conditional reads (304) — each as CPU per
 * request and × its floor (`--only single,floor`: those rows alone), and second processes of the server
 * and the floor on the single read (`singleTwin`, `floorTwin`). `--before FILE` adds another server bundle
 * (e.g. main's dist/node/server.mjs) on the same file to the same rounds,
 * for before/after ratios from one run. `--profile DIR`: the server
 * without read cache on SQLite, the floor and the one on PostgreSQL, write a V8 CPU
 * profile each into DIR (named with their pid, which the run prints).
 */

const { values: opt } = parseArgs({
  options: {
    articles: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '3' },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
    'skip-pg': { type: 'boolean', default: false },
    before: { type: 'string' },
    /** A directory: the server without read cache writes a V8 CPU profile there when it stops (node --cpu-prof). */
    profile: { type: 'string' },
    /** Only these rows (comma-separated keys, e.g. `single,floor`): a profile of one kind of read. */
    only: { type: 'string' },
  },
});
const log = (msg: string) => process.stdout.write(`bench: ${msg}\n`);
const SERVICE_FLOOR_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'service-floor-server.ts');
installExitHandlers();
const lateCleanups: (() => Promise<void>)[] = [];

type Key =
  | 'floor'
  | 'floorTwin'
  | 'singleTwin'
  | 'serviceFloor'
  | 'floorList'
  | 'floorPg'
  | 'single'
  | 'list'
  | 'notModified'
  | 'singlePg'
  | 'listPg'
  | 'notModifiedPg'
  | 'singleBefore'
  | 'listBefore'
  | 'notModifiedBefore';

async function main() {
  if (await buildNode()) log('built dist/node/server.mjs');
  const { tmp, dbFile, serverOpts } = benchWorkspace('edge-cms-bench-reads-');
  await (await startServer(serverOpts('the Node server (migrating)'))).stop();
  const seeded = seedDatabase(dbFile, { articles: Number(opt.articles), renderHtml: await appRenderer() });
  log(`seeded ${seeded.articles.toLocaleString('en')} articles`);
  const profiling = opt.profile
    ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(opt.profile)}` }
    : undefined;
  const { uncached, floor, twins, pgServer, floorPg } = await startUncachedServers({
    serverOpts: (name, env = {}) =>
      serverOpts(
        name,
        profiling && (env.PUBLIC_READ_CACHE === 'off' || name === 'the Node server on PostgreSQL' || env.FLOOR_PARTS)
          ? { ...env, ...profiling }
          : env,
      ),
    dbFile,
    pgUrl: opt['skip-pg'] ? null : opt['pg-url']!,
    lateCleanups,
    log,
  });
  const before = opt.before
    ? await startServer(serverOpts('the server before', { PUBLIC_READ_CACHE: 'off' }, path.resolve(opt.before)))
    : undefined;
  const serviceFloor = await startServer({
    ...serverOpts('the service floor', {
      FLOOR_PARTS: await bundleFloorParts(),
      SERVICE_PARTS: await bundleServiceParts(),
    }),
    script: SERVICE_FLOOR_SCRIPT,
  });
  log(`service floor (service-floor-server.ts) pid ${serviceFloor.pid} on ${serviceFloor.url}`);
  const { sampleIds, notModified } = await sampleReads(uncached.url, seeded.onlineIdsNewestFirst, tmp, log);
  const single = sampleIds.map((id) => `/v1/articles/${id}`);
  const list = ['/v1/articles?limit=20'];
  // The floor answers exactly the server's bytes, or it is no floor of the same work.
  // The service floor serves the single read alone.
  for (const [server, itsFloor, paths] of [
    [uncached, floor, [single[0]!, list[0]!]],
    [uncached, serviceFloor, [single[0]!]],
    [pgServer, floorPg, [single[0]!, list[0]!]],
  ] as const) {
    if (!server || !itsFloor) continue;
    for (const p of paths) {
      const [mine, floors] = [(await get(server.url, p)).body, (await get(itsFloor.url, p)).body];
      if (mine !== floors) throw new Error(`${itsFloor.name} GET ${p}: not the server's JSON`);
    }
  }
  const targets: LoadTarget<Key>[] = [
    { key: 'floor', origin: floor.url, paths: single, pid: floor.pid },
    { key: 'serviceFloor', origin: serviceFloor.url, paths: single, pid: serviceFloor.pid },
    { key: 'floorList', origin: floor.url, paths: list, pid: floor.pid },
    { key: 'single', origin: uncached.url, paths: single, pid: uncached.pid },
    // Second processes of the same builds: how far one process can be from another here.
    { key: 'singleTwin', origin: twins.uncached.url, paths: single, pid: twins.uncached.pid },
    { key: 'floorTwin', origin: twins.floor.url, paths: single, pid: twins.floor.pid },
    { key: 'list', origin: uncached.url, paths: list, pid: uncached.pid },
    { key: 'notModified', origin: uncached.url, paths: notModified, pid: uncached.pid },
    ...(floorPg ? [{ key: 'floorPg' as const, origin: floorPg.url, paths: single, pid: floorPg.pid }] : []),
  ];
  for (const [srv, suffix] of [
    [pgServer, 'Pg'],
    [before, 'Before'],
  ] as const) {
    if (!srv) continue;
    targets.push(
      { key: `single${suffix}`, origin: srv.url, paths: single, pid: srv.pid },
      { key: `list${suffix}`, origin: srv.url, paths: list, pid: srv.pid },
      { key: `notModified${suffix}`, origin: srv.url, paths: notModified, pid: srv.pid },
    );
  }
  const only = opt.only?.split(',');
  const chosen = only ? targets.filter((t) => only.includes(t.key)) : targets;
  const runs = await throughputRounds(chosen, {
    connections: 10,
    seconds: Number(opt.seconds),
    warmupSeconds: 1.5,
    rounds: Number(opt.rounds),
  });
  closeClient();
  // A profile is written when the process exits.
  if (opt.profile)
    await Promise.all([uncached, floor, twins.uncached, twins.floor, pgServer, floorPg].map((s) => s?.stop()));
  const cpu = (k: Key) => runs[k]?.cpuUsPerRequest ?? Number.NaN;
  // PostgreSQL's floor is its single read's (the list floor reads SQLite).
  const floorOf = (k: Key) =>
    k.startsWith('floor')
      ? null
      : k === 'serviceFloor'
        ? 'floor'
        : k.endsWith('Pg')
          ? k.startsWith('list')
            ? null
            : 'floorPg'
          : k.startsWith('list')
            ? 'floorList'
            : 'floor';
  console.log(
    `load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  console.log('target               req/s   CPU/request   × floor');
  for (const t of chosen) {
    const f = floorOf(t.key);
    console.log(
      `${t.key.padEnd(18)} ${Math.round(runs[t.key]!.rps).toString().padStart(7)}   ${cpu(t.key).toFixed(0).padStart(8)} µs   ${f ? `×${(cpu(t.key) / cpu(f)).toFixed(2)}` : ''}`,
    );
  }
  if (runs.singleTwin && runs.floorTwin)
    console.log(
      `second processes: server ×${(cpu('singleTwin') / cpu('single')).toFixed(2)} its first, floor ×${(cpu('floorTwin') / cpu('floor')).toFixed(2)}`,
    );
  // What the server's layers cost over its own service, apart from what the service costs over the floor.
  if (runs.single && runs.serviceFloor)
    console.log(`single × service floor: ×${(cpu('single') / cpu('serviceFloor')).toFixed(2)}`);
}

runBench(main, () => Promise.allSettled(lateCleanups.map((fn) => fn())));
