import { EDITOR_JS_GOAL_BYTES, MEDIA_PAGE_GOAL_BYTES, MEDIA_PHOTOS } from '../admin-budgets.ts';
import { ADMIN_JS_GOAL_BYTES, type AdminBytes } from '../admin-bytes.ts';
import { BUDGET_BYTES } from '../bundle-size.ts';
import { type CodecComparison, SOURCE, TARGET_WIDTH, type VariantCost } from '../images.ts';
import type { StartupResult } from '../startup.ts';
import type { WorkersResult } from '../workers.ts';
import type { Latency, Throughput } from './load.ts';
import { ratioRow } from './ratio-row.ts';
import type { Sustained } from './sustained.ts';
import { uncachedRows } from './uncached-goals.ts';
import { workersRows } from './workers-goals.ts';

/** docs/benchmarks.md: the goals for start-up (0.15× Ghost's) and RSS 5 s after start (0.4×). */
export const STARTUP_GOAL_MS = 220;
export const RSS_GOAL_MIB = 92;
/** A sustained run's last segment may cost at most this much more per request than its first. */
export const DRIFT_LIMIT = 1.05;

export interface BenchRow {
  metric: string;
  value: number;
  baseline: number;
  unit: string;
  ratio: number;
  goal: string | null;
  /** null: a figure shown for context, with no goal. */
  pass: boolean | null;
  /** The server's CPU time per request against the baseline's, in µs. */
  cpu: { value: number; baseline: number } | null;
}

export interface BundleResult {
  raw: number;
  gzip: number;
  files: string[];
  budget: number;
}

export interface ImageResults {
  firstRequestMs: number;
  cachedRequestMs: number;
  runs: Record<'original' | 'variant', Throughput>;
  codecs: CodecComparison;
  costBySize: VariantCost[];
}

/** The rows without the read cache, their floors and the 304s (run.ts; optional: PostgreSQL may be skipped). */
export type UncachedKey =
  | 'singleUncached'
  | 'slugUncached'
  | 'slugPg'
  | 'floor'
  | 'singleUncachedTwin'
  | 'floorTwin'
  | 'floorPg'
  | 'singlePg'
  | 'notModified'
  | 'listUncached'
  | 'floorList'
  | 'notModifiedPg'
  | 'listAuthors'
  | 'listLean'
  | 'storedList'
  | 'storedListAuthors';

export interface GoalInputs {
  runs: Record<'baseline' | 'single' | 'list' | 'deepList', Throughput> & Partial<Record<UncachedKey, Throughput>>;
  lat1: Latency;
  latDeep: Latency;
  deepPage: number;
  pageSize: number;
  bundle: BundleResult | undefined;
  images: ImageResults;
  admin: AdminBytes | undefined;
  drift: { sqlite?: Sustained; pg?: Sustained };
  startup: Record<'server' | 'baseline', StartupResult>;
  workers: WorkersResult | undefined;
}

/** The report's rows: each measured value against its baseline, and the goal for the ratio (null: shown only). */
export function goalRows({
  runs,
  lat1,
  latDeep,
  deepPage,
  pageSize,
  bundle,
  images,
  admin,
  drift,
  startup,
  workers,
}: GoalInputs): BenchRow[] {
  const baselineRps = runs.baseline.rps;
  const cpu = (key: keyof GoalInputs['runs'], base: keyof GoalInputs['runs'] = 'baseline'): BenchRow['cpu'] => {
    const v = runs[key]?.cpuUsPerRequest ?? null;
    return v === null ? null : { value: v, baseline: runs[base]?.cpuUsPerRequest ?? NaN };
  };
  const driftRows = (d: Sustained | undefined, label: string) => {
    if (!d) return [];
    const first = d.segments[0]!;
    const last = d.segments[d.segments.length - 1]!;
    return [
      ...(first.cpuUsPerRequest !== null && last.cpuUsPerRequest !== null
        ? [
            ratioRow(
              `${label} uncached read, CPU/request last vs first segment`,
              last.cpuUsPerRequest,
              first.cpuUsPerRequest,
              DRIFT_LIMIT,
              'µs',
              false,
            ),
          ]
        : []),
      ratioRow(`${label} uncached read, req/s last vs first segment`, last.rps, first.rps, null, 'req/s'),
    ];
  };
  const p = deepPage.toLocaleString('en');
  return [
    ratioRow('GET /v1/articles/:id (online)', runs.single.rps, baselineRps, 0.6, 'req/s', true, cpu('single')),
    ratioRow(
      `GET /v1/articles?limit=${pageSize} (page 1)`,
      runs.list.rps,
      baselineRps,
      0.4,
      'req/s',
      true,
      cpu('list'),
    ),
    // The list with its bylines (include=authors; every list carries total) against the plain list, same rounds.
    ...(runs.listAuthors
      ? [
          ratioRow(
            `GET /v1/articles?limit=${pageSize}&include=authors (page 1) vs plain list`,
            runs.listAuthors.rps,
            runs.list.rps,
            0.9,
            'req/s',
            true,
            cpu('listAuthors', 'list'),
          ),
        ]
      : []),
    // The same two answers' bytes from the bare baseline (baseline-server.ts, BASELINE_STORED): the floor
    // of the row above, which the load client, not the server, bounds (docs/benchmarks.md).
    ...(runs.storedList && runs.storedListAuthors
      ? [
          ratioRow(
            'the same two answers as stored bytes from the bare baseline',
            runs.storedListAuthors.rps,
            runs.storedList.rps,
            null,
            'req/s',
            true,
            cpu('storedListAuthors', 'storedList'),
          ),
        ]
      : []),
    // The lean list (fields=, what a list shows) against the default one: what trimming the items buys.
    ...(runs.listLean
      ? [
          ratioRow(
            `GET /v1/articles?limit=${pageSize}&fields=… (page 1) vs default list`,
            runs.listLean.rps,
            runs.list.rps,
            null,
            'req/s',
            true,
            cpu('listLean', 'list'),
          ),
        ]
      : []),
    ...uncachedRows(runs, pageSize, cpu),
    ...driftRows(drift.sqlite, 'SQLite'),
    ...driftRows(drift.pg, 'PostgreSQL'),
    ratioRow('start-up to first 200 vs goal', startup.server.firstOkMs, STARTUP_GOAL_MS, 1, 'ms', false),
    ratioRow(
      'start-up to first 200 vs bare Hono',
      startup.server.firstOkMs,
      startup.baseline.firstOkMs,
      null,
      'ms',
      false,
    ),
    ...(startup.server.cpuMs !== null && startup.baseline.cpuMs !== null
      ? [
          ratioRow(
            'start-up CPU time to first 200 vs bare Hono',
            startup.server.cpuMs,
            startup.baseline.cpuMs,
            null,
            'ms',
            false,
          ),
        ]
      : []),
    ratioRow('RSS 5 s after start vs goal', startup.server.rssMiB, RSS_GOAL_MIB, 1, 'MiB', false),
    ratioRow('RSS 5 s after start vs bare Hono', startup.server.rssMiB, startup.baseline.rssMiB, null, 'MiB', false),
    ratioRow(`page ${p} vs page 1, latency p50`, latDeep.p50Ms, lat1.p50Ms, 1.5, 'ms', false),
    ratioRow(`page ${p} vs page 1, latency p99`, latDeep.p99Ms, lat1.p99Ms, null, 'ms', false),
    ratioRow(
      `page ${p} vs page 1, throughput`,
      runs.deepList.rps,
      runs.list.rps,
      null,
      'req/s',
      true,
      cpu('deepList', 'list'),
    ),
    ...(['jpeg', 'webp'] as const).flatMap((f) => [
      ratioRow(
        `variant ${SOURCE.width}×${SOURCE.height} → ${TARGET_WIDTH} px ${f}, time (app vs sharp)`,
        images.codecs[f].app.ms,
        images.codecs[f].sharp.ms,
        4,
        'ms',
        false,
      ),
      ratioRow(
        `variant ${SOURCE.width}×${SOURCE.height} → ${TARGET_WIDTH} px ${f}, bytes (app vs sharp)`,
        images.codecs[f].app.bytes,
        images.codecs[f].sharp.bytes,
        1.3,
        'bytes',
        false,
      ),
    ]),
    ratioRow(
      'GET cached variant vs GET original',
      images.runs.variant.rps,
      images.runs.original.rps,
      0.5,
      'req/s',
      true,
      images.runs.variant.cpuUsPerRequest === null || images.runs.original.cpuUsPerRequest === null
        ? null
        : { value: images.runs.variant.cpuUsPerRequest, baseline: images.runs.original.cpuUsPerRequest },
    ),
    ...workersRows(workers, pageSize),
    ...(bundle
      ? [ratioRow('Worker bundle (gzip) vs budget', bundle.gzip / 1024, BUDGET_BYTES / 1024, 1, 'KiB', false)]
      : []),
    ...(admin
      ? [
          ratioRow(
            'admin JS (gzip) until login is usable vs goal',
            admin.login.gzip / 1024,
            ADMIN_JS_GOAL_BYTES / 1024,
            1,
            'KiB',
            false,
          ),
          ratioRow(
            'admin JS (gzip) on the editor route vs goal',
            admin.budgets.editor.gzip / 1024,
            EDITOR_JS_GOAL_BYTES / 1024,
            1,
            'KiB',
            false,
          ),
          ratioRow(
            `media grid bytes, ${MEDIA_PHOTOS} phone photos vs goal`,
            admin.budgets.media.bytes / 1024,
            MEDIA_PAGE_GOAL_BYTES / 1024,
            1,
            'KiB',
            false,
          ),
        ]
      : []),
  ];
}
