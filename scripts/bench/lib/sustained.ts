import autocannon from 'autocannon';
import { cpuMs } from './load.ts';

/**
 * One uninterrupted autocannon run cut into equal segments, each with its
 * answers per second and the server's CPU time per answer: the drift check.
 * It must be one run: between separate runs every connection closes, the
 * server's pools go idle, and a cost that grows with sustained load (as
 * postgres.js 3.4.9's queue did, docs/postgres-driver.md) resets unseen.
 */
export interface Segment {
  rps: number;
  cpuUsPerRequest: number | null;
}

export interface Sustained {
  segments: Segment[];
  /** last segment / first: answers per second, and CPU per answer. */
  rpsDrift: number;
  cpuDrift: number | null;
}

export function sustainedRun(
  origin: string,
  paths: readonly string[],
  pid: number | undefined,
  { connections, seconds, segmentSeconds }: { connections: number; seconds: number; segmentSeconds: number },
): Promise<Sustained> {
  const count = Math.max(2, Math.round(seconds / segmentSeconds));
  return new Promise((resolve, reject) => {
    const segments: Segment[] = [];
    let answers = 0;
    let bad = 0;
    let t0 = performance.now();
    let cpu0 = cpuMs(pid);
    const instance = autocannon(
      {
        url: origin,
        connections,
        // A little longer than the segments, so that the last one is complete.
        duration: count * segmentSeconds + 1,
        requests: paths.map((path) => ({ method: 'GET' as const, path })),
        pipelining: 1,
        timeout: 10,
      },
      (err, r) => {
        clearInterval(timer);
        if (err) return reject(err);
        if (bad || r.errors || r.timeouts)
          return reject(
            new Error(`${origin}${paths[0]}: ${bad} answers not 200, ${r.errors} errors, ${r.timeouts} timeouts`),
          );
        if (segments.length < count) return reject(new Error(`only ${segments.length} of ${count} segments measured`));
        const first = segments[0]!;
        const last = segments[count - 1]!;
        resolve({
          segments: segments.slice(0, count),
          rpsDrift: last.rps / first.rps,
          cpuDrift:
            first.cpuUsPerRequest === null || last.cpuUsPerRequest === null
              ? null
              : last.cpuUsPerRequest / first.cpuUsPerRequest,
        });
      },
    );
    instance.on('response', (_client: unknown, status: number) => {
      if (status === 200) answers++;
      else bad++;
    });
    const timer = setInterval(() => {
      if (segments.length >= count) return;
      const now = performance.now();
      const cpu = cpuMs(pid);
      segments.push({
        rps: (answers * 1000) / (now - t0),
        cpuUsPerRequest: cpu === null || cpu0 === null || answers === 0 ? null : ((cpu - cpu0) * 1000) / answers,
      });
      answers = 0;
      t0 = now;
      cpu0 = cpu;
    }, segmentSeconds * 1000);
  });
}
