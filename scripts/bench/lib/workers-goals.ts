import type { WorkersKey, WorkersResult } from '../workers.ts';
import type { BenchRow } from './goals.ts';
import { ratioRow } from './ratio-row.ts';

/** Workers: CPU per request against the bare Hono Worker's, on a cache miss and on a cache hit. */
export const WORKERS_MISS_LIMIT = 3;
export const WORKERS_HIT_LIMIT = 1.2;
/** Workers against their floors (workers-floor.ts): a miss against the D1 floor, a hit against the hit floor (one Cache API read and what the answer needs). */
export const WORKERS_MISS_FLOOR_LIMIT = 2;
export const WORKERS_HIT_FLOOR_LIMIT = 1.3;

/**
 * Workers: the Worker's CPU time per request, its isolate's own (V8 profile,
 * lib/isolate-cpu.ts: what Cloudflare bills and limits), against the bare
 * Hono Worker's for the same JSON — the goals; the miss against the D1
 * floor, the hit against the hit floor (one Cache API read, the answer's
 * headers and access line; for information, against the bare Worker's
 * two lookups and its one lookup without them), and the whole workerd
 * process's CPU (which also runs D1's and the Cache API's simulations), for
 * information.
 */
export function workersRows(w: WorkersResult | undefined, pageSize: number): BenchRow[] {
  if (!w) return [];
  const cpu = (k: WorkersKey) => w.runs[k].cpuUsPerRequest;
  const own = (k: WorkersKey) => w.isolate[k].usPerRequest;
  const rows: BenchRow[] = [];
  for (const [what, kind, bare, cacheApi, one, floor, hitFloor] of [
    [
      'GET /v1/articles/:id',
      'single',
      'bareSingle',
      'cacheApiSingle',
      'cacheOneSingle',
      'floorSingle',
      'hitFloorSingle',
    ],
    [
      `GET /v1/articles?limit=${pageSize}`,
      'list',
      'bareList',
      'cacheApiList',
      'cacheOneList',
      'floorList',
      'hitFloorList',
    ],
  ] as const) {
    rows.push(
      ratioRow(`Workers ${what}, cache miss, CPU time`, own(`${kind}Miss`), own(bare), WORKERS_MISS_LIMIT, 'µs', false),
      ratioRow(`Workers ${what}, cache hit, CPU time`, own(`${kind}Hit`), own(bare), WORKERS_HIT_LIMIT, 'µs', false),
      ratioRow(
        `Workers ${what}, cache miss vs D1 floor, CPU time`,
        own(`${kind}Miss`),
        own(floor),
        WORKERS_MISS_FLOOR_LIMIT,
        'µs',
        false,
      ),
      ratioRow(
        `Workers ${what}, cache hit vs hit floor, CPU time`,
        own(`${kind}Hit`),
        own(hitFloor),
        WORKERS_HIT_FLOOR_LIMIT,
        'µs',
        false,
      ),
      ratioRow(`Workers ${what}, cache hit vs bare Cache API`, own(`${kind}Hit`), own(cacheApi), null, 'µs', false),
      ratioRow(`Workers ${what}, cache hit vs one Cache API read`, own(`${kind}Hit`), own(one), null, 'µs', false),
    );
    const base = cpu(bare);
    const miss = cpu(`${kind}Miss`);
    const hit = cpu(`${kind}Hit`);
    if (base === null || miss === null || hit === null) continue;
    rows.push(
      ratioRow(`Workers ${what}, cache miss, process CPU`, miss, base, null, 'µs', false),
      ratioRow(`Workers ${what}, cache hit, process CPU`, hit, base, null, 'µs', false),
    );
  }
  return rows;
}
