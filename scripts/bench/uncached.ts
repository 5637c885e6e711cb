import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleFloorParts } from './lib/floor-parts.ts';
import { copySeedToPostgres, createBenchSchema } from './lib/pg-copy.ts';
import { type StartedServer, type StartServerOptions, startServer } from './lib/processes.ts';
import type { BenchConfig } from './lib/report.ts';
import { type Sustained, sustainedRun } from './lib/sustained.ts';

const FLOOR_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floor-server.ts');

/**
 * The reads without the in-process cache: the server on the seeded SQLite
 * file with PUBLIC_READ_CACHE=off, the least such a read can cost on the
 * same file (floor-server.ts), and the server on PostgreSQL holding the
 * same rows (a fresh schema, dropped at the end through `lateCleanups`)
 * with its own floor on that schema.
 */
export async function startUncachedServers({
  serverOpts,
  dbFile,
  pgUrl,
  lateCleanups,
  log,
}: {
  serverOpts: (name: string, env?: NodeJS.ProcessEnv) => StartServerOptions;
  dbFile: string;
  /** null: leave PostgreSQL out. */
  pgUrl: string | null;
  lateCleanups: (() => Promise<void>)[];
  log: (msg: string) => void;
}): Promise<{
  uncached: StartedServer;
  floor: StartedServer;
  /** A second process of each: the SQLite goal is judged on both (docs/benchmarks.md). */
  twins: { uncached: StartedServer; floor: StartedServer };
  pgServer: StartedServer | undefined;
  floorPg: StartedServer | undefined;
}> {
  const uncachedOpts = serverOpts('the Node server, read cache off', { PUBLIC_READ_CACHE: 'off' });
  const [uncached, uncachedTwin] = [await startServer(uncachedOpts), await startServer(uncachedOpts)];
  log(`server without read cache pids ${uncached.pid} and ${uncachedTwin.pid} on ${uncached.url}, ${uncachedTwin.url}`);
  const floorParts = await bundleFloorParts();
  const floorOpts = serverOpts('the floor of an uncached read', { FLOOR_PARTS: floorParts });
  const startFloor = () => startServer({ ...floorOpts, script: FLOOR_SCRIPT, readyPath: '/readyz' });
  const [floor, floorTwin] = [await startFloor(), await startFloor()];
  log(`floor server (floor-server.ts) pids ${floor.pid} and ${floorTwin.pid} on ${floor.url}, ${floorTwin.url}`);
  const twins = { uncached: uncachedTwin, floor: floorTwin };
  if (pgUrl === null) return { uncached, floor, twins, pgServer: undefined, floorPg: undefined };
  const pgSchema = await createBenchSchema(pgUrl).catch((err: Error) => {
    throw new Error(`PostgreSQL at --pg-url is not usable (${err.message}); pass --skip-pg to leave it out`);
  });
  // After the servers are killed (cleanupNow), on any way out.
  lateCleanups.push(pgSchema.drop);
  const env = { DATABASE_URL: pgSchema.url };
  const migrating = await startServer(serverOpts('the Node server on PostgreSQL (migrating)', env));
  await migrating.stop();
  const t0 = performance.now();
  const copied = await copySeedToPostgres(dbFile, pgSchema);
  log(
    `copied ${copied.toLocaleString('en')} rows to PostgreSQL schema ${pgSchema.schema} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const pgServer = await startServer(serverOpts('the Node server on PostgreSQL', env));
  log(`server on PostgreSQL pid ${pgServer.pid} on ${pgServer.url}`);
  const floorPgOpts = serverOpts('the floor on PostgreSQL', { ...env, FLOOR_PARTS: floorParts });
  const floorPg = await startServer({ ...floorPgOpts, script: FLOOR_SCRIPT, readyPath: '/readyz' });
  log(`floor server on PostgreSQL pid ${floorPg.pid} on ${floorPg.url}`);
  return { uncached, floor, twins, pgServer, floorPg };
}

/** One uninterrupted run of uncached single reads per database, in 6 segments. */
export async function driftRuns(
  servers: { sqlite: StartedServer; pg: StartedServer | undefined },
  paths: string[],
  cfg: BenchConfig,
  log: (msg: string) => void,
): Promise<{ sqlite?: Sustained; pg?: Sustained }> {
  const segmentSeconds = cfg.driftSeconds / 6;
  const drift: { sqlite?: Sustained; pg?: Sustained } = {};
  for (const key of ['sqlite', 'pg'] as const) {
    const srv = servers[key];
    if (!srv) continue;
    log(
      `drift: ${cfg.driftSeconds} s of uncached single reads on ${key === 'pg' ? 'PostgreSQL' : 'SQLite'}, ${segmentSeconds} s segments`,
    );
    drift[key] = await sustainedRun(srv.url, paths, srv.pid, {
      connections: cfg.connections,
      seconds: cfg.driftSeconds,
      segmentSeconds,
    });
  }
  return drift;
}
