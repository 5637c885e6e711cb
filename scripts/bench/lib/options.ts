import { parseArgs } from 'node:util';
import type { BenchConfig } from './report.ts';

/** `npm run bench` options (scripts/bench/run.ts), with --help. */
export function benchOptions() {
  const { values: opt } = parseArgs({
    options: {
      articles: { type: 'string', default: '100000' },
      'online-share': { type: 'string', default: '0.5' },
      connections: { type: 'string', default: '10' },
      seconds: { type: 'string', default: '7.5' },
      rounds: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '1.5' },
      'latency-seconds': { type: 'string', default: '5' },
      'deep-page': { type: 'string', default: '5000' },
      'page-size': { type: 'string', default: '20' },
      'drift-seconds': { type: 'string', default: '60' },
      'startup-repeats': { type: 'string', default: '3' },
      'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
      'skip-pg': { type: 'boolean', default: false },
      json: { type: 'string' },
      server: { type: 'string' },
      'skip-bundle': { type: 'boolean', default: false },
      'skip-admin': { type: 'boolean', default: false },
      'skip-workers': { type: 'boolean', default: false },
      'workers-articles': { type: 'string', default: '20000' },
      quick: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });

  if (opt.help) {
    console.log(`usage: npm run bench -- [options]
  --articles N          articles to seed (100000)
  --online-share F      share of them online (0.5)
  --connections N       autocannon connections (10)
  --seconds S           measured seconds per throughput target, all rounds (7.5)
  --rounds N            rounds the throughput targets are interleaved in (3)
  --warmup S            discarded warm-up before each run (1.5)
  --latency-seconds S   page 1 / deep page latency sampling (5)
  --deep-page N         the deep page to compare with page 1 (5000)
  --page-size N         list limit (20)
  --drift-seconds S     the sustained-load run of each uncached read, in 6 segments (60)
  --startup-repeats N   start-ups of the server and of the baseline; the median is kept (3)
  --pg-url URL          PostgreSQL for the uncached PostgreSQL read (a fresh schema is made
                        and dropped; default $BENCH_PG_URL or postgres://postgres@127.0.0.1:5432/postgres)
  --skip-pg             leave PostgreSQL out
  --json FILE           also write the results as JSON
  --server FILE         benchmark this server bundle instead of building dist/node/server.mjs
                        (a candidate build; it finds drizzle/ two levels up, like the real one)
  --skip-bundle         do not run wrangler for the Worker bundle size
  --skip-admin          do not measure the admin's budgets in Chromium (scripts/bench/admin-bytes.ts)
  --skip-workers        do not measure the Worker's CPU per read under wrangler dev (scripts/bench/workers.ts)
  --workers-articles N  articles in the Worker's local D1, all online: each miss needs a URL of its own (20000)
  --quick               smoke run: 10,000 articles (5,000 in D1), 2 s runs (numbers not comparable)`);
    process.exit(0);
  }

  type NumberOption =
    | 'articles'
    | 'online-share'
    | 'connections'
    | 'seconds'
    | 'rounds'
    | 'warmup'
    | 'latency-seconds'
    | 'deep-page'
    | 'page-size'
    | 'drift-seconds'
    | 'startup-repeats'
    | 'workers-articles';

  const num = (name: NumberOption): number => {
    const n = Number(opt[name]);
    if (!Number.isFinite(n) || n <= 0) {
      console.error(`--${name} must be a positive number`);
      process.exit(2);
    }
    return n;
  };
  const cfg: BenchConfig = {
    articles: Math.floor(opt.quick ? 10_000 : num('articles')),
    onlineShare: Math.min(1, num('online-share')),
    connections: Math.floor(num('connections')),
    seconds: opt.quick ? 2 : num('seconds'),
    rounds: opt.quick ? 2 : Math.floor(num('rounds')),
    warmup: opt.quick ? 0.5 : num('warmup'),
    latencySeconds: opt.quick ? 1.5 : num('latency-seconds'),
    deepPage: Math.floor(num('deep-page')),
    pageSize: Math.floor(num('page-size')),
    driftSeconds: opt.quick ? 12 : num('drift-seconds'),
    startupRepeats: opt.quick ? 1 : Math.floor(num('startup-repeats')),
    workersArticles: opt.quick ? 5_000 : Math.floor(num('workers-articles')),
  };
  return { opt, cfg };
}
