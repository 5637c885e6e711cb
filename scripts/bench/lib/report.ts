/** The printed report: context, the table of ratios, and what explains them. */
import type { AdminBytes } from '../admin-bytes.ts';
import type { WorkersResult } from '../workers.ts';
import type { DeepPageResult } from './deep-page.ts';
import type { BenchRow, BundleResult, GoalInputs, ImageResults } from './goals.ts';
import type { Latency } from './load.ts';

export interface BenchConfig {
  articles: number;
  onlineShare: number;
  connections: number;
  seconds: number;
  rounds: number;
  warmup: number;
  latencySeconds: number;
  deepPage: number;
  pageSize: number;
  driftSeconds: number;
  startupRepeats: number;
  workersArticles: number;
}

/** Everything one run measured; `--json FILE` writes it as it is. */
export interface BenchResults {
  date: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; platform: string };
  config: BenchConfig;
  server: string;
  seed: { articles: number; online: number; bodyBytesAvg: number; seconds: number };
  queryPlans: Record<string, string>;
  deepPage: DeepPageResult;
  runs: GoalInputs['runs'];
  latency: { page1: Latency; deep: Latency };
  drift: GoalInputs['drift'];
  startup: GoalInputs['startup'];
  images: ImageResults;
  bundle?: BundleResult;
  admin?: AdminBytes;
  workers?: WorkersResult;
  rows: BenchRow[];
  totalSeconds: number;
}

const fmt = (n: number, unit: string): string => {
  if (unit === 'ms') return `${n.toFixed(3)} ms`;
  if (unit === 'KiB') return `${n.toFixed(1)} KiB`;
  if (unit === 'MiB') return `${n.toFixed(1)} MiB`;
  if (unit === 'µs') return `${n.toFixed(1)} µs`;
  return `${Math.round(n).toLocaleString('en')} ${unit}`;
};

function table(headers: string[], rows: (string | number)[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: readonly (string | number)[]) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i] ?? 0) : String(c).padStart(widths[i] ?? 0))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function formatReport(r: BenchResults): string {
  const m = r.machine;
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const out: string[] = [];
  out.push(`edge-cms benchmark — ${r.date}`);
  out.push(`${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}`);
  out.push(
    `${r.seed.articles.toLocaleString('en')} articles (${r.seed.online.toLocaleString('en')} online, bodies ~${r.seed.bodyBytesAvg} B) seeded in ${r.seed.seconds.toFixed(1)} s; ` +
      `autocannon ${r.config.connections} connections, ${r.config.warmup} s warm-up + ${r.config.seconds} s per target in ${r.config.rounds} interleaved rounds`,
  );
  out.push('');
  out.push(
    table(
      ['metric', 'value', 'baseline', 'ratio', 'goal', 'result', 'server CPU/request (vs baseline)'],
      r.rows.map((row) => [
        row.metric,
        fmt(row.value, row.unit),
        fmt(row.baseline, row.unit),
        row.ratio.toFixed(2),
        row.goal ?? '—',
        row.pass === null ? 'info' : row.pass ? 'PASS' : 'MISS',
        row.cpu
          ? `${Math.round(row.cpu.value)} µs (${Math.round(row.cpu.baseline)} µs, ×${(row.cpu.value / row.cpu.baseline).toFixed(1)})`
          : '',
      ]),
    ),
  );
  out.push('');
  const perRound = (key: keyof BenchResults['runs']) =>
    (r.runs[key]?.perRound ?? []).map((n) => Math.round(n).toLocaleString('en')).join(' / ');
  const optional = (
    [
      'singleUncached',
      'slugUncached',
      'floor',
      'floorPg',
      'singlePg',
      'slugPg',
      'notModified',
      'listUncached',
      'floorList',
      'notModifiedPg',
      'listAuthors',
      'listLean',
      'storedList',
      'storedListAuthors',
    ] as const
  )
    .filter((k) => r.runs[k])
    .map((k) => `; ${k} ${perRound(k)}`)
    .join('');
  out.push(
    `req/s per round (interleaved): baseline ${perRound('baseline')}; single ${perRound('single')}; list ${perRound('list')}; page ${r.deepPage.page.toLocaleString('en')} ${perRound('deepList')}${optional}.`,
  );
  // CPU time per request × requests per second: the cores the server kept busy. A server well below the
  // baseline's figure was waiting for the client (autocannon, on the other core), not for its own work.
  const busy = (Object.keys(r.runs) as (keyof BenchResults['runs'])[])
    .flatMap((k) => {
      const t = r.runs[k];
      return t?.cpuUsPerRequest == null ? [] : [`${k} ${((t.cpuUsPerRequest * t.rps) / 1e6).toFixed(2)}`];
    })
    .join(', ');
  if (busy) out.push(`server CPU seconds per second under load: ${busy}.`);
  for (const [key, label] of [
    ['sqlite', 'SQLite'],
    ['pg', 'PostgreSQL'],
  ] as const) {
    const d = r.drift[key];
    if (!d) continue;
    const segs = d.segments
      .map(
        (s) =>
          `${Math.round(s.rps).toLocaleString('en')}${s.cpuUsPerRequest === null ? '' : ` (${Math.round(s.cpuUsPerRequest)} µs)`}`,
      )
      .join(' / ');
    out.push(
      `drift, uncached single read on ${label}, ${r.config.driftSeconds} s in ${d.segments.length} segments, req/s (CPU/request): ${segs}.`,
    );
  }
  const starts = (k: 'server' | 'baseline') =>
    r.startup[k].samples
      .map((s) => `${s.firstOkMs.toFixed(0)} ms (CPU ${s.cpuMs ?? '?'} ms) / ${s.rssMiB.toFixed(1)} MiB`)
      .join(', ');
  out.push(
    `start-ups (first 200 (CPU until then) / RSS at 5 s): server ${starts('server')}; bare Hono ${starts('baseline')}.`,
  );
  out.push(
    `page latencies: one connection, page 1 and the deep page in turn, ${r.latency.page1.count.toLocaleString('en')} samples each ` +
      `(means ${r.latency.page1.meanMs.toFixed(3)} / ${r.latency.deep.meanMs.toFixed(3)} ms).`,
  );
  out.push(
    `bytes per response, headers included: baseline ${kb(r.runs.baseline.bytesPerResponse)}, single article ${kb(r.runs.single.bytesPerResponse)}, ` +
      `list page 1 ${kb(r.runs.list.bytesPerResponse)}, page ${r.deepPage.page.toLocaleString('en')} ${kb(r.runs.deepList.bytesPerResponse)}.`,
  );
  out.push(
    `deep page: walked ${(r.deepPage.page - 1).toLocaleString('en')} nextCursor links in ${r.deepPage.walkSeconds.toFixed(1)} s; the cursor equals the one computed from the seeded ids.`,
  );
  if (r.images?.costBySize) {
    const cost = r.images.costBySize
      .map(
        (c) =>
          `${c.megapixels.toFixed(1)} MP${c.progressive ? ' progressive' : ''} ${c.appMs.toFixed(0)} ms (sharp ${c.sharpMs.toFixed(0)})`,
      )
      .join(', ');
    out.push(`320 px JPEG variant by original size, the app's codec: ${cost}.`);
  }
  if (r.workers) {
    const w = r.workers;
    const each = Object.entries(w.runs)
      .map(([k, run]) => `${k} ${Math.round(run.rps).toLocaleString('en')}`)
      .join(', ');
    out.push(
      `Workers (wrangler dev, ${w.articles.toLocaleString('en')} articles in D1; answers ${kb(w.bytes.single)} and ${kb(w.bytes.list)}), req/s: ${each}.`,
    );
    const profiled = Object.entries(w.isolate)
      .map(([k, i]) => `${k} ${i.usPerRequest.toFixed(0)} µs (${i.samples} samples, ${i.intervalUs.toFixed(0)} µs)`)
      .join(', ');
    out.push(`Workers isolate CPU time per request (V8 profiles; samples, µs of CPU per sample): ${profiled}.`);
  }
  if (r.deepPage.note)
    out.push(`note: page ${r.deepPage.requested.toLocaleString('en')} was asked for, but ${r.deepPage.note}.`);
  if (r.bundle) {
    out.push(
      `Worker bundle (wrangler deploy --dry-run): ${r.bundle.files.length} file(s), ${kb(r.bundle.raw)} raw, ${kb(r.bundle.gzip)} gzip, ` +
        `${((r.bundle.gzip / r.bundle.budget) * 100).toFixed(1)}% of the ${kb(r.bundle.budget)} budget.`,
    );
  }
  out.push(`server: ${r.server}`);
  out.push('query plans (SQLite, as seeded):');
  for (const [name, plan] of Object.entries(r.queryPlans)) out.push(`  ${name.padEnd(8)} ${plan}`);
  const missed = r.rows.filter((row) => row.pass === false);
  out.push('');
  out.push(
    missed.length === 0
      ? `all goals met (${r.totalSeconds.toFixed(0)} s).`
      : `${missed.length} goal(s) missed: ${missed.map((row) => row.metric).join('; ')} (${r.totalSeconds.toFixed(0)} s). See docs/benchmarks.md for how to read this.`,
  );
  return out.join('\n');
}
