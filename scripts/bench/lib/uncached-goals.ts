import type { BenchRow, GoalInputs, UncachedKey } from './goals.ts';
import { ratioRow } from './ratio-row.ts';

/** The uncached reads' CPU against their floor's (floor-server.ts): the issue's goals. */
export const FLOOR_LIMIT_SQLITE = 1.3;
export const FLOOR_LIMIT_PG = 1.5;
/** A 304 on PostgreSQL against an uncached read there, CPU per request. */
export const PG_304_LIMIT = 0.3;

type Runs = GoalInputs['runs'];

/**
 * The reads without the read cache (SQLite and PostgreSQL), their floors
 * and the 304s: req/s against the baseline, CPU per request against the
 * floor that does only the read's own work, and the reads by slug against
 * by id. `cpu` is goals.ts's, so that every row is made alike.
 */
export function uncachedRows(
  runs: Runs,
  pageSize: number,
  cpu: (key: keyof Runs, base?: keyof Runs) => BenchRow['cpu'],
): BenchRow[] {
  const baselineRps = runs.baseline.rps;
  const uncached = (key: 'singleUncached' | 'singlePg', label: string) => {
    const run = runs[key];
    return run
      ? [ratioRow(`GET /v1/articles/:id uncached, ${label}`, run.rps, baselineRps, 0.35, 'req/s', true, cpu(key))]
      : [];
  };
  /** CPU per request of one target against another's (a floor), when both were measured. */
  const cpuRow = (metric: string, key: UncachedKey, base: UncachedKey, goal: number | null) => {
    const v = runs[key]?.cpuUsPerRequest ?? null;
    const b = runs[base]?.cpuUsPerRequest ?? null;
    return v === null || b === null ? [] : [ratioRow(metric, v, b, goal, 'µs', false)];
  };
  /** CPU per request over processes of one build: their CPU summed over their answers summed (null: one was not measured). */
  const pooledCpu = (keys: readonly UncachedKey[]) => {
    let us = 0;
    let answers = 0;
    for (const k of keys) {
      const run = runs[k];
      if (!run || run.cpuUsPerRequest === null) return null;
      us += run.cpuUsPerRequest * run.requests;
      answers += run.requests;
    }
    return us / answers;
  };
  // Two processes of the server and two of the floor: one process of a build ran up to 8 % faster or
  // slower than another of the same build for a whole run (docs/benchmarks.md), as much as a change measures.
  const sqliteFloorRow = () => {
    const app = pooledCpu(['singleUncached', 'singleUncachedTwin']);
    const floor = pooledCpu(['floor', 'floorTwin']);
    const metric = 'GET /v1/articles/:id uncached, SQLite, CPU vs floor';
    if (app === null || floor === null) return cpuRow(metric, 'singleUncached', 'floor', FLOOR_LIMIT_SQLITE);
    return [ratioRow(metric, app, floor, FLOOR_LIMIT_SQLITE, 'µs', false)];
  };
  // The same articles by slug against by id, on the same server in the same rounds: within 1.1× its cost.
  const bySlug = (key: 'slugUncached' | 'slugPg', byId: 'singleUncached' | 'singlePg', label: string) => {
    const run = runs[key];
    const base = runs[byId];
    return run && base
      ? [
          ratioRow(
            `GET /v1/articles/slug/:slug uncached, ${label}, vs by id`,
            run.rps,
            base.rps,
            1 / 1.1,
            'req/s',
            true,
            cpu(key, byId),
          ),
        ]
      : [];
  };
  return [
    ...uncached('singleUncached', 'SQLite'),
    ...bySlug('slugUncached', 'singleUncached', 'SQLite'),
    // The same read with nothing but its own work (floor-server.ts): how near the goal any server can come.
    ...(runs.floor
      ? [ratioRow('uncached read floor, SQLite', runs.floor.rps, baselineRps, null, 'req/s', true, cpu('floor'))]
      : []),
    ...uncached('singlePg', 'PostgreSQL'),
    ...sqliteFloorRow(),
    ...cpuRow(
      'the uncached SQLite server, its second process vs its first, CPU',
      'singleUncachedTwin',
      'singleUncached',
      null,
    ),
    ...cpuRow('the SQLite floor, its second process vs its first, CPU', 'floorTwin', 'floor', null),
    // PostgreSQL's floor reads the same schema through the same driver (floor-server.ts).
    ...(runs.floorPg
      ? [
          ratioRow(
            'uncached read floor, PostgreSQL',
            runs.floorPg.rps,
            baselineRps,
            null,
            'req/s',
            true,
            cpu('floorPg'),
          ),
        ]
      : []),
    ...cpuRow('GET /v1/articles/:id uncached, PostgreSQL, CPU vs floor', 'singlePg', 'floorPg', FLOOR_LIMIT_PG),
    ...(runs.listUncached
      ? [
          ratioRow(
            `GET /v1/articles?limit=${pageSize} uncached, SQLite`,
            runs.listUncached.rps,
            baselineRps,
            null,
            'req/s',
            true,
            cpu('listUncached'),
          ),
        ]
      : []),
    ...(runs.floorList
      ? [
          ratioRow(
            'uncached list floor, SQLite',
            runs.floorList.rps,
            baselineRps,
            null,
            'req/s',
            true,
            cpu('floorList'),
          ),
        ]
      : []),
    ...cpuRow(`GET /v1/articles?limit=${pageSize} uncached, SQLite, CPU vs floor`, 'listUncached', 'floorList', null),
    ...cpuRow(
      'GET /v1/articles/:id → 304 on PostgreSQL, CPU vs uncached read',
      'notModifiedPg',
      'singlePg',
      PG_304_LIMIT,
    ),
    ...bySlug('slugPg', 'singlePg', 'PostgreSQL'),
    ...(runs.notModified
      ? [
          ratioRow(
            'GET /v1/articles/:id → 304 (If-None-Match)',
            runs.notModified.rps,
            baselineRps,
            0.8,
            'req/s',
            true,
            cpu('notModified'),
          ),
        ]
      : []),
  ];
}
