import { readFileSync } from 'node:fs';
import { type HealthzProbe, rssBytes } from './healthz-probe.ts';
import { must, send } from './http.ts';

/**
 * What Markdown costs the server: rendering per KB (in this process, the
 * app's own renderer), and, against a running server, a create of a hostile
 * body and anonymous uncached reads of it, each with the slowest /healthz
 * meanwhile. Shared by the reliability step and by a measurement of an older
 * build (its bundle started the same way), so both are measured alike.
 */

const KiB = 1024;
/** Emphasis delimiters without closers: markdown-it's costliest input per byte. */
export const hostileMarkdown = (bytes: number) => '*_'.repeat(Math.floor(bytes / 2));
export const plainMarkdown = (bytes: number) =>
  'Plain prose, with a [link](https://example.com) now and then, and *some* emphasis.\n\n'
    .repeat(bytes / 80)
    .slice(0, bytes);

export interface RenderCost {
  name: string;
  kib: number;
  ms: number;
  msPerKb: number;
  outputRatio: number;
}

/** The best of three renders of each body (the least disturbed by other work on the machine). */
export function renderCosts(render: (body: string, format: string) => string, kib: number): RenderCost[] {
  const bodies: [string, string][] = [
    ['hostile (`*_` repeated)', hostileMarkdown(kib * KiB)],
    ['plain prose', plainMarkdown(kib * KiB)],
  ];
  return bodies.map(([name, body]) => {
    let best = Number.POSITIVE_INFINITY;
    let out = '';
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      out = render(body, 'markdown');
      best = Math.min(best, performance.now() - t);
    }
    return { name, kib, ms: best, msPerKb: best / kib, outputRatio: out.length / body.length };
  });
}

/** CPU seconds a process has used (user + system; Linux /proc, clock ticks of 10 ms). */
export function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export interface ServerUnderTest {
  url: string;
  pid: number | undefined;
}

export interface WriteRow {
  name: string;
  status: number;
  message: string;
  ms: number;
  healthzMs: number;
}

/** Creates an article, timing the answer and the slowest /healthz while it ran. */
export async function timedCreate(
  server: ServerUnderTest,
  token: string,
  probe: HealthzProbe,
  name: string,
  body: string,
): Promise<WriteRow & { id: string | undefined }> {
  await probe.mark();
  const res = await send(server.url, {
    method: 'POST',
    path: '/v1/articles',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: name, body }),
    timeoutMs: 300_000,
  });
  const health = await probe.mark();
  const answer = res.status > 0 ? JSON.parse(res.body.toString('utf8')) : {};
  return {
    name,
    status: res.status,
    message: answer.error?.message ?? '',
    ms: res.ms,
    healthzMs: health.worstMs,
    id: answer.article?.id,
  };
}

export interface ReadRow {
  name: string;
  reads: number;
  msPerRead: number;
  cpuMsPerRead: number | null;
  answerBytes: number;
  healthzMs: number;
  rss: number | null;
}

/**
 * Publishes the article, then reads it anonymously `reads` times, each under
 * another Host (a different Host misses any read cache keyed by it; the
 * server should also run with PUBLIC_READ_CACHE=off). The server's CPU per
 * read is its /proc counters over all of them.
 */
export async function timedReads(
  server: ServerUnderTest,
  token: string,
  probe: HealthzProbe,
  name: string,
  id: string,
  reads: number,
): Promise<ReadRow> {
  await must(server.url, 'POST', `/v1/articles/${id}/publish`, 200, { token });
  await probe.mark();
  const cpuBefore = cpuMs(server.pid);
  let ms = 0;
  let answerBytes = 0;
  for (let i = 0; i < reads; i++) {
    const res = await send(server.url, {
      path: `/v1/articles/${id}`,
      headers: { host: `reader-${i}.example` },
      timeoutMs: 120_000,
    });
    if (res.status !== 200) throw new Error(`read ${i} of ${name}: ${res.status} ${res.error ?? ''}`);
    ms += res.ms;
    answerBytes = res.body.length;
  }
  const cpuAfter = cpuMs(server.pid);
  const health = await probe.mark();
  return {
    name,
    reads,
    msPerRead: ms / reads,
    cpuMsPerRead: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / reads,
    answerBytes,
    healthzMs: health.worstMs,
    rss: rssBytes(server.pid),
  };
}
