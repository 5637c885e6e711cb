import { type RawRequest, send } from './http.ts';
import { problemsOf, type Secrets } from './verdict.ts';

/**
 * Traffic through a dependency outage: `workers` loops send the `kinds` of
 * request in turn, healthy for `beforeMs`, then `fail()` is called, then
 * `restore()` after `outageMs`, then traffic goes on for `afterMs`. Every
 * answer is timed and kept, so the report can say how fast the 503s came,
 * whether any request hung, and how long recovery took.
 */
/** One kind of request the traffic sends: a name for the report and a fresh request each time. */
export interface RequestKind {
  name: string;
  request(): RawRequest;
}

export interface OutagePlan {
  kinds: readonly RequestKind[];
  fail(): unknown;
  restore(): unknown;
  beforeMs: number;
  outageMs: number;
  afterMs: number;
  workers?: number;
  ctx: Secrets;
}

interface Sample {
  kind: string;
  started: number;
  ms: number;
  status: number;
  problems: string[];
  answer: string | undefined;
}

export async function outageRun(
  server: { url: string; pid: number | undefined },
  { kinds, fail, restore, beforeMs, outageMs, afterMs, workers = 6, ctx }: OutagePlan,
): Promise<OutageResult> {
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  const samples: Sample[] = [];
  let stop = false;
  let turn = 0;
  const loop = async () => {
    while (!stop) {
      const kind = kinds[turn++ % kinds.length]!;
      const started = now();
      const req = kind.request();
      const res = await send(server.url, { ...req, timeoutMs: 20_000 });
      const problems = problemsOf(res, req, ctx).filter((p) => p !== 'status 503');
      samples.push({
        kind: kind.name,
        started,
        ms: res.ms,
        status: res.status,
        problems,
        answer: problems.length ? res.body.toString('utf8').slice(0, 200) : undefined,
      });
    }
  };
  const running = Array.from({ length: workers }, loop);
  await sleep(beforeMs);
  const failAt = now();
  await fail();
  await sleep(outageMs);
  const restoreAt = now();
  await restore();
  await sleep(afterMs);
  stop = true;
  await Promise.all(running);
  return analyse(samples, failAt, restoreAt, kinds, server);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface OutageResult {
  requests: number;
  before: { count: number; failed: number };
  during: {
    count: number;
    byStatus: Record<number, number>;
    slowest: number;
    over2s: number;
    slow: { kind: string; status: number; ms: number; startedAfterFailMs: number }[];
    notRefusedCleanly: number;
  };
  firstRefusalMs: number | null;
  /** Per kind: ms after the restore until every later answer succeeded (null: never failed after it). */
  recoveredAt: Record<string, number | null>;
  afterByKind: Record<string, Record<number, number>>;
  tokensIssued: number;
  problems: string[];
  alive: boolean;
}

function analyse(
  samples: readonly Sample[],
  failAt: number,
  restoreAt: number,
  kinds: readonly RequestKind[],
  server: { pid: number | undefined },
): OutageResult {
  const ok = (s: Sample) => s.status >= 200 && s.status < 400;
  const before = samples.filter((s) => s.started + s.ms < failAt);
  // In flight at the failure, or sent during the outage.
  const during = samples.filter((s) => s.started + s.ms >= failAt && s.started < restoreAt);
  const afterByKind: Record<string, Record<number, number>> = {};
  for (const s of samples.filter((x) => x.started >= restoreAt)) {
    const byStatus = afterByKind[s.kind] ?? {};
    byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
    afterByKind[s.kind] = byStatus;
  }
  const firstRefusal = during.filter((s) => s.status === 503).sort((a, b) => a.started + a.ms - (b.started + b.ms))[0];
  const recoveredAt: Record<string, number | null> = {};
  for (const k of kinds) {
    const after = samples.filter((s) => s.kind === k.name && s.started >= restoreAt);
    // Recovered: from this answer on, every answer of this kind succeeded.
    let idx = after.length;
    while (idx > 0 && ok(after[idx - 1]!)) idx--;
    const first = after[idx];
    recoveredAt[k.name] = first ? first.started + first.ms - restoreAt : null;
  }
  // A session handed out while the database was unreachable (answered before it came back).
  const tokensIssued = during.filter(
    (s) => s.kind === 'login' && s.status === 200 && s.started >= failAt && s.started + s.ms < restoreAt,
  ).length;
  const slow = during
    .filter((s) => s.ms > 2000)
    .map((s) => ({
      kind: s.kind,
      status: s.status,
      ms: Math.round(s.ms),
      startedAfterFailMs: Math.round(s.started - failAt),
    }));
  return {
    requests: samples.length,
    before: { count: before.length, failed: before.filter((s) => !ok(s)).length },
    during: {
      count: during.length,
      byStatus: tally(during.map((s) => s.status)),
      slowest: Math.max(0, ...during.map((s) => s.ms)),
      over2s: slow.length,
      slow: slow.slice(0, 8),
      notRefusedCleanly: during.filter((s) => !ok(s) && s.status !== 503).length,
    },
    firstRefusalMs: firstRefusal ? firstRefusal.started + firstRefusal.ms - failAt : null,
    recoveredAt,
    afterByKind,
    tokensIssued,
    problems: [
      ...new Map(
        samples.flatMap((s) => s.problems.map((p) => [p, `${p}: ${s.kind} → ${s.status} ${s.answer ?? ''}`] as const)),
      ).values(),
    ],
    alive: isAlive(server.pid),
  };
}

export function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function tally(list: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const x of list) counts[x] = (counts[x] ?? 0) + 1;
  return counts;
}
