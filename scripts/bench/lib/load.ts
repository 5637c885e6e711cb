import { readFileSync } from 'node:fs';
import http from 'node:http';
import autocannon from 'autocannon';

/**
 * Load generation. Throughput comes from autocannon (programmatic API);
 * per-request latency of single requests comes from a small sequential
 * client, because autocannon's latency histogram counts whole milliseconds
 * and a page of this API takes well under one.
 */

/**
 * CPU time (user + system) a process has used so far, in milliseconds, from
 * /proc (Linux; USER_HZ is 100 there on every architecture). null elsewhere.
 */
export function cpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * One autocannon run against `origin`, cycling through `paths` on every
 * connection. Any error, timeout or non-2xx answer makes the measurement
 * worthless: that throws.
 */
export interface AutocannonResult {
  requests: number;
  seconds: number;
  bytes: number;
  latencyMeanMs: number;
}

/**
 * A path with the headers to send, for conditional requests: with
 * `If-None-Match` every answer must be a 304 instead of a 2xx.
 */
export type LoadPath = string | { path: string; headers: Record<string, string> };

/** Seconds autocannon waits for one answer before it counts a timeout. */
const REQUEST_TIMEOUT_S = 10;

export function autocannonRun(
  origin: string,
  paths: readonly LoadPath[],
  {
    connections,
    seconds,
    fresh,
    warmup = false,
  }: {
    connections: number;
    seconds: number;
    fresh?: () => string;
    /** A warm-up may end before its first answer (a cold Worker on a busy machine); errors still count. */
    warmup?: boolean;
  },
): Promise<AutocannonResult> {
  const requests = fresh
    ? // A path of its own for every request (cache misses): autocannon asks for it as each request goes out.
      [{ method: 'GET' as const, setupRequest: (req: { path?: string }) => ({ ...req, path: fresh() }) }]
    : paths.map((p) =>
        typeof p === 'string' ? { method: 'GET' as const, path: p } : { method: 'GET' as const, ...p },
      );
  const conditional = !fresh && typeof paths[0] === 'object';
  const first = fresh ? '(fresh paths)' : typeof paths[0] === 'string' ? paths[0] : paths[0]?.path;
  return new Promise((resolve, reject) => {
    // A run that never called back would hold the benchmark for good: a deadline past its duration and
    // its request timeout turns that into an error.
    const limitS = seconds + 2 * REQUEST_TIMEOUT_S;
    const deadline = setTimeout(() => {
      run.stop();
      reject(new Error(`${origin}${first}: autocannon did not finish within ${limitS} s`));
    }, limitS * 1000);
    const run = autocannon(
      { url: origin, connections, duration: seconds, requests, pipelining: 1, timeout: REQUEST_TIMEOUT_S },
      (err, r) => {
        clearTimeout(deadline);
        if (err) return reject(err);
        const good = conditional ? r['3xx'] : r['2xx'];
        if (r.errors || r.timeouts || (good === 0 && !warmup) || r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'] !== good) {
          return reject(
            new Error(
              `${origin}${first}: ${good} answers ${conditional ? '304' : '2xx'}, ${r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'] - good} not, ${r.errors} errors, ${r.timeouts} timeouts — the measurement is not valid`,
            ),
          );
        }
        resolve({ requests: good, seconds: r.duration, bytes: r.throughput.total, latencyMeanMs: r.latency.mean });
      },
    );
  });
}

/**
 * Throughput of several targets measured in rounds: a warm-up of each
 * (discarded), then `rounds` rounds in which every target gets
 * `seconds / rounds`, the order rotating from round to round. On a shared
 * machine the load from elsewhere comes and goes; interleaving spreads it over
 * all targets instead of letting it land on one. Also records each target
 * server's CPU time per request.
 */
export interface LoadTarget<K extends string> {
  key: K;
  origin: string;
  paths: LoadPath[];
  /** The server's pid, for its CPU time (undefined: not measured). */
  pid: number | undefined;
  /** Instead of cycling through `paths`: a new path for every request (e.g. one the cache has never seen). */
  fresh?: () => string;
}

export interface Throughput {
  rps: number;
  perRound: number[];
  requests: number;
  bytesPerResponse: number;
  cpuUsPerRequest: number | null;
}

/** The spell `settle` measures CPU time in. */
export const SETTLE_SPELL_MS = 150;

/**
 * Waits until `pid` has used no more than `quietMs` of CPU (one clock tick,
 * 10 ms, unless told more) in each of two 150 ms spells, at most `maxMs`.
 * A Worker's deferred work (`waitUntil`: storing a miss in the Cache API)
 * goes on after the answers; waiting for it counts it to the run that
 * caused it, not to the next one.
 */
export async function settle(pid: number | undefined, maxMs = 15_000, quietMs = 10): Promise<void> {
  const until = Date.now() + maxMs;
  let quiet = 0;
  let last = cpuMs(pid);
  while (last !== null && quiet < 2 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, SETTLE_SPELL_MS));
    const now = cpuMs(pid);
    quiet = now !== null && now - last <= quietMs ? quiet + 1 : 0;
    last = now;
  }
}

export async function throughputRounds<K extends string>(
  targets: readonly LoadTarget<K>[],
  {
    connections,
    seconds,
    warmupSeconds,
    rounds,
    settleAfterEach = false,
    onRun = () => {},
  }: {
    connections: number;
    seconds: number;
    warmupSeconds: number;
    rounds: number;
    /** Count deferred work to the run that caused it (see settle()). */
    settleAfterEach?: boolean;
    onRun?: (what: string) => void;
  },
): Promise<Record<K, Throughput>> {
  const acc = targets.map(() => ({
    requests: 0,
    seconds: 0,
    bytes: 0,
    cpuMs: 0 as number | null,
    perRound: [] as number[],
  }));
  for (const t of targets) {
    onRun(`${t.key} warm-up`);
    await autocannonRun(t.origin, t.paths, { connections, seconds: warmupSeconds, fresh: t.fresh, warmup: true });
    if (settleAfterEach) await settle(t.pid);
  }
  const each = seconds / rounds;
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < targets.length; k++) {
      const i = (k + round) % targets.length;
      const t = targets[i]!;
      onRun(`${t.key} round ${round + 1}/${rounds}`);
      const cpu0 = cpuMs(t.pid);
      const r = await autocannonRun(t.origin, t.paths, { connections, seconds: each, fresh: t.fresh });
      if (settleAfterEach) await settle(t.pid);
      const cpu1 = cpuMs(t.pid);
      const a = acc[i]!;
      a.requests += r.requests;
      a.seconds += r.seconds;
      a.bytes += r.bytes;
      a.cpuMs = cpu0 === null || cpu1 === null || a.cpuMs === null ? null : a.cpuMs + (cpu1 - cpu0);
      a.perRound[round] = r.requests / r.seconds;
    }
  }
  return Object.fromEntries(
    targets.map((t, i) => {
      const a = acc[i]!;
      return [
        t.key,
        {
          rps: a.requests / a.seconds,
          perRound: a.perRound,
          requests: a.requests,
          bytesPerResponse: Math.round(a.bytes / a.requests),
          cpuUsPerRequest: a.cpuMs === null ? null : (a.cpuMs * 1000) / a.requests,
        },
      ];
    }),
  ) as Record<K, Throughput>;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET on a kept-alive connection: status, body and elapsed milliseconds. */
export interface Answer {
  status: number | undefined;
  body: string;
  ms: number;
  etag: string | undefined;
  headers: http.IncomingHttpHeaders;
}

export function get(origin: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.get(origin + path, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        resolve({
          status: res.statusCode,
          body: Buffer.concat(chunks).toString('utf8'),
          ms,
          etag: typeof res.headers.etag === 'string' ? res.headers.etag : undefined,
          headers: res.headers,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`GET ${path}: no answer within 10 s`)));
  });
}

/** A 200 answer's JSON; `T` is what the caller knows the route returns. */
export async function getJson<T>(
  origin: string,
  path: string,
): Promise<{ json: T; ms: number; bytes: number; etag: string | undefined }> {
  const res = await get(origin, path);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body.slice(0, 300)}`);
  return { json: JSON.parse(res.body), ms: res.ms, bytes: Buffer.byteLength(res.body), etag: res.etag };
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/**
 * Latency of several paths measured turn by turn on one connection (a, b, a,
 * b, …) for `seconds`, after `warmupSeconds` of the same: interleaving means
 * both see the same machine, caches and GC pressure, so the ratio is fair.
 */
export interface Latency {
  count: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
}

export async function interleavedLatency(
  origin: string,
  paths: readonly string[],
  { seconds, warmupSeconds }: { seconds: number; warmupSeconds: number },
): Promise<Latency[]> {
  const samples = paths.map((): number[] => []);
  const loop = async (until: number, record: boolean) => {
    while (performance.now() < until) {
      for (let i = 0; i < paths.length; i++) {
        const path = paths[i]!;
        const res = await get(origin, path);
        if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body.slice(0, 300)}`);
        if (record) samples[i]!.push(res.ms);
      }
    }
  };
  await loop(performance.now() + warmupSeconds * 1000, false);
  await loop(performance.now() + seconds * 1000, true);
  return samples.map((s) => {
    const sorted = [...s].sort((a, b) => a - b);
    return {
      count: sorted.length,
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      meanMs: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    };
  });
}

export function closeClient(): void {
  agent.destroy();
}
