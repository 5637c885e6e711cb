import vm from 'node:vm';
import type { Inspector } from './inspector.ts';
import { autocannonRun, type LoadTarget, settle } from './load.ts';

/**
 * The Worker isolate's own CPU time, from a V8 CPU profile taken through
 * `wrangler dev`'s DevTools inspector (the way Cloudflare's "Profiling CPU
 * usage" page does it by hand: Profiler.start, requests, Profiler.stop).
 *
 * Why a profile and not the process: under wrangler dev one workerd process
 * and one thread run the Worker's isolate beside miniflare's entry worker and
 * the isolates and SQLite behind D1 and the Cache API. Cloudflare bills and
 * limits a Worker's CPU time, which leaves out waiting on those (see
 * docs/benchmarks.md, "Reading the table"). V8's sampler only records a sample
 * while the profiled isolate is entered on its thread, i.e. while workerd
 * holds that isolate's lock and runs its JavaScript, its native calls
 * (`(program)`) or its garbage collection; time in other isolates, in the
 * event loop or in SQLite leaves no sample. So
 *
 *   isolate CPU ≈ (samples not `(idle)`) × (the CPU time one sample stands for)
 *
 * What a sample stands for is measured in each profile, because the sampler
 * runs on wall-clock time while Cloudflare counts CPU time: every half second
 * a loop of plain JavaScript of known CPU time (measured in this process with
 * `process.cpuUsage`) is evaluated in the isolate (Runtime.evaluate, as
 * DevTools' console does); its samples per loop give the CPU per sample. The
 * sampler signals the thread (SIGPROF, not queued): while the thread waits
 * for a core, further signals merge into one sample, so preemption on a busy
 * machine thins the loop's samples and the Worker's alike, and the ratio
 * stays one of CPU time. The loop's own samples are left out. Sampling is
 * blind to request boundaries, so over thousands of
 * requests the count is an unbiased estimate; its statistical error is
 * about 1/√samples, printed beside it.
 */

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface IsolateCpu {
  /** Estimated µs the isolate was busy (samples other than `(idle)` × interval). */
  busyUs: number;
  /** Samples other than `(idle)`. */
  samples: number;
  /** The CPU time one sample stands for, µs (from the calibration loops). */
  intervalUs: number;
  /** µs of self time by frame (`name url:line`), for reading where it went. */
  selfUs: Map<string, number>;
  /** µs of inclusive time by frame: every frame on a sample's stack counts once. */
  totalUs: Map<string, number>;
}

export const SAMPLING_INTERVAL_US = 250;

/** A loop of plain JavaScript, about 10 ms long, named so that its samples can be told apart. */
export const CALIBRATION_FN = '__isolateCpuCalibration';
export const CALIBRATION = `(function ${CALIBRATION_FN}() { let x = 0; for (let i = 0; i < 1e7; i++) x = (x + i) % 1000003; return x; })()`;
/** How often the loop runs during a profiled run: the sampler's pace changes with the machine's load. */
export const CALIBRATE_EVERY_MS = 500;

const label = (n: ProfileNode) => {
  const f = n.callFrame;
  const file = f.url ? ` ${f.url.slice(f.url.lastIndexOf('/') + 1)}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'}${file}`;
};

/**
 * The CPU time one calibration loop takes, measured on this process's own V8
 * (`process.cpuUsage`, CPU time, so a busy machine does not lengthen it):
 * the least of nine fresh evaluations, each compiled anew as the Worker's are.
 */
let loopCpu: number | undefined;
export function calibrationLoopCpuUs(): number {
  if (loopCpu === undefined) {
    const times: number[] = [];
    for (let i = 0; i < 9; i++) {
      const before = process.cpuUsage();
      vm.runInThisContext(CALIBRATION);
      const used = process.cpuUsage(before);
      times.push(used.user + used.system);
    }
    loopCpu = Math.min(...times);
  }
  return loopCpu;
}

export function isolateCpu(
  profile: CpuProfile,
  { loops, loopCpuUs }: { loops: number; loopCpuUs: number },
): IsolateCpu {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const nameOf = (id: number) => byId.get(id)?.callFrame.functionName;
  // What one sample stands for: `loops` calibration loops of known CPU time left this many samples.
  const loopSamples = profile.samples.filter((id) => nameOf(id) === CALIBRATION_FN).length;
  if (loopSamples < 5 * loops)
    throw new Error(
      `profile: ${loopSamples} samples in ${loops} calibration loops; the sampler did not run as expected`,
    );
  const perSampleUs = (loopCpuUs * loops) / loopSamples;
  const weight = new Map<number, number>();
  let samples = 0;
  for (const id of profile.samples) {
    const name = nameOf(id);
    if (name === CALIBRATION_FN || name === '(idle)') continue;
    samples++;
    weight.set(id, (weight.get(id) ?? 0) + perSampleUs);
  }
  const busyUs = samples * perSampleUs;
  const selfUs = new Map<string, number>();
  const totalUs = new Map<string, number>();
  for (const [id, us] of weight) {
    const self = label(byId.get(id)!);
    selfUs.set(self, (selfUs.get(self) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!);
      if (seen.has(l)) continue;
      seen.add(l);
      totalUs.set(l, (totalUs.get(l) ?? 0) + us);
    }
  }
  return { busyUs, samples, intervalUs: perSampleUs, selfUs, totalUs };
}

export interface IsolateRun extends IsolateCpu {
  requests: number;
  /** busyUs / requests. */
  usPerRequest: number;
}

/**
 * Profiled runs of every target, in `rounds` rounds whose order rotates (as
 * the throughput rounds do, so that load from elsewhere on the machine lands
 * on all targets), each on its own Worker's inspector: `seconds / rounds` of
 * the same load, then until the workerd process is idle again, so that
 * deferred work (`waitUntil`) is in the profile of the run that caused it.
 */
export async function profiledRuns<K extends string>(
  targets: readonly (LoadTarget<K> & { inspector: Inspector })[],
  {
    connections,
    seconds,
    rounds,
    onRun = () => {},
  }: { connections: number; seconds: number; rounds: number; onRun?: (what: string) => void },
): Promise<Record<K, IsolateRun>> {
  const acc = new Map<K, IsolateRun>();
  const idle = new Map<number | undefined, number>();
  for (const t of targets) if (!idle.has(t.pid)) idle.set(t.pid, await t.inspector.idleCpuPerSpell(t.pid));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < targets.length; k++) {
      const t = targets[(k + round) % targets.length]!;
      onRun(`${t.key} profiled, round ${round + 1}/${rounds}`);
      // Idle, for a workerd under the profiler, is its sampler's own cost: counted from zero, every run on a
      // slower machine waited out settle's 15 s (20-30 ms a spell, the most of six measured before the rounds).
      const { result, profile, loops } = await t.inspector.profile(
        () => autocannonRun(t.origin, t.paths, { connections, seconds: seconds / rounds, fresh: t.fresh }),
        () => settle(t.pid, undefined, 10 + (idle.get(t.pid) ?? 0)),
      );
      const cpu = isolateCpu(profile, { loops, loopCpuUs: calibrationLoopCpuUs() });
      const a = acc.get(t.key);
      if (!a) {
        acc.set(t.key, { ...cpu, requests: result.requests, usPerRequest: 0 });
        continue;
      }
      a.busyUs += cpu.busyUs;
      a.samples += cpu.samples;
      a.requests += result.requests;
      for (const [from, to] of [
        [cpu.selfUs, a.selfUs],
        [cpu.totalUs, a.totalUs],
      ] as const)
        for (const [key, us] of from) to.set(key, (to.get(key) ?? 0) + us);
    }
  }
  for (const a of acc.values()) {
    a.usPerRequest = a.busyUs / a.requests;
    a.intervalUs = a.busyUs / a.samples;
  }
  return Object.fromEntries(acc) as Record<K, IsolateRun>;
}

/** The frames with the most self and inclusive time per request, for reading a profile. */
export function topFrames(run: IsolateRun, n = 15): string {
  const fmt = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `    ${(us / run.requests).toFixed(1).padStart(7)} µs  ${k}`)
      .join('\n');
  return `  self:\n${fmt(run.selfUs)}\n  inclusive:\n${fmt(run.totalUs)}`;
}
