import { freshPostgres, nodeServer, registerOwner } from '../lib/stack.ts';
import { wranglerDev } from '../lib/wrangler.ts';
import { type MixedLoadResult, mixedLoad, seedForLoad } from '../load.ts';
import type { Log, ReliabilityConfig, Section } from './step.ts';

export type LoadRun = { name: string; connections: number } & (MixedLoadResult | { error: string });

/** Step 3: mixed load on Node + SQLite, Node + PostgreSQL, and a short run on `wrangler dev`. */
export async function loadStep(cfg: ReliabilityConfig, log: Log): Promise<LoadRun[]> {
  const runs: LoadRun[] = [];
  const one = async (
    name: string,
    start: () => Promise<{ url: string; log(): string; stop(): Promise<unknown> }>,
    seconds: number,
    connections: number,
  ) => {
    let target: Awaited<ReturnType<typeof start>> | undefined;
    try {
      target = await start();
      const token = await registerOwner(target);
      const seed = await seedForLoad(target.url, token);
      log(`load: ${name}, ${connections} connections, ${seconds} s`);
      runs.push({ name, connections, ...(await mixedLoad(target.url, token, seed, { connections, seconds })) });
    } catch (err) {
      runs.push({ name, connections, error: String((err as Error | undefined)?.message ?? err).slice(0, 600) });
    } finally {
      await target?.stop();
    }
  };
  await one('Node + SQLite + local dir', () => nodeServer('Node + SQLite (load)'), cfg.seconds, cfg.connections);
  const pg = await freshPostgres();
  try {
    await one(
      `Node + PostgreSQL (database ${pg.name}) + local dir`,
      () => nodeServer('Node + PostgreSQL (load)', { env: { DATABASE_URL: pg.url } }),
      cfg.seconds,
      cfg.connections,
    );
  } finally {
    await pg.drop();
  }
  if (!cfg.skipWrangler) {
    // workerd with local D1/R2 under wrangler's dev proxy: a functional check under load, not a performance figure.
    await one('wrangler dev (workerd, local D1 + R2)', () => wranglerDev(), cfg.quick ? 5 : 15, 10);
  }
  return runs;
}

export function loadSection(runs: LoadRun[]): Section {
  const lines = [
    "Each connection cycles through 9 public reads (article lists of 20 and 100, single articles, sites, authors, an article's images, an image file) and 1 authenticated write (alternately `POST /v1/articles` and an image upload of a unique PNG). Afterwards every 201 is read back: the article with its title, the image byte for byte. Latency is autocannon's (whole milliseconds).",
    '',
    '| target | connections | seconds | requests | req/s | p50 ms | p99 ms | max ms | 5xx | errors/timeouts | writes 201 (articles + images) | other write statuses | lost writes |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  let failures = 0;
  for (const r of runs) {
    if ('error' in r) {
      failures++;
      lines.push(
        `| ${r.name} | ${r.connections} | could not run: ${r.error.replace(/\n/g, ' ').replace(/\|/g, '¦')} |`,
      );
      continue;
    }
    const other =
      Object.entries(r.writeStatuses)
        .filter(([s]) => s !== '201')
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ') || 'none';
    lines.push(
      `| ${r.name} | ${r.connections} | ${r.seconds} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.latency.max} | ${r.fivexx} | ${r.errors}/${r.timeouts} | ${r.created.articles} + ${r.created.images} | ${other} | ${r.lost.length} |`,
    );
    failures +=
      r.fivexx +
      r.errors +
      r.timeouts +
      r.lost.length +
      r.created.unparsable +
      Object.keys(r.writeStatuses).filter((s) => s !== '201').length;
    for (const l of r.lost.slice(0, 5)) lines.push(`- lost: ${l}`);
  }
  const statuses = runs
    .flatMap((r) => ('error' in r ? [] : [r]))
    .map(
      (r) =>
        `${r.name}: ${Object.entries(r.byStatus)
          .map(([s, n]) => `${s} × ${n}`)
          .join(', ')}`,
    );
  lines.push('', 'All answers by status:', '', ...statuses.map((s) => `- ${s}`));
  return { title: '3. Load', body: lines.join('\n'), failures };
}
