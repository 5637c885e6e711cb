import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cleanupNow, installExitHandlers } from '../bench/lib/processes.ts';
import { FINDINGS, NOT_RUN } from './findings.ts';
import { closeAgent } from './lib/http.ts';
import { decodeSection, decodeStep } from './steps/decode.step.ts';
import { faultsSection, faultsStep } from './steps/faults.step.ts';
import { fuzzSection, fuzzStep } from './steps/fuzz.step.ts';
import { headersSection, headersStep } from './steps/headers.step.ts';
import { loadSection, loadStep } from './steps/load.step.ts';
import { markdownSection, markdownStep } from './steps/markdown.step.ts';
import { racesSection, racesStep } from './steps/races.step.ts';
import { describeError, type Log, type ReliabilityConfig, type Section } from './steps/step.ts';

/**
 * `npm run reliability`: hostile input, security headers, load, faults,
 * races, decode bombs and body floods against the real servers on 127.0.0.1, written to
 * docs/reliability.md. Exits 1 when any step found a failure, 2 when a step
 * could not run. Not part of `npm test` (minutes long); each bug it found
 * has a fast regression test there instead.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** A step: what it measures, then the report section it makes of that. */
const step =
  <R>(run: (cfg: ReliabilityConfig, log: Log) => Promise<R>, section: (result: R) => Section) =>
  async (cfg: ReliabilityConfig, log: Log): Promise<Section> =>
    section(await run(cfg, log));
const STEPS: Record<string, (cfg: ReliabilityConfig, log: Log) => Promise<Section>> = {
  fuzz: step(fuzzStep, fuzzSection),
  headers: step(headersStep, headersSection),
  load: step(loadStep, loadSection),
  faults: step(faultsStep, faultsSection),
  races: step(racesStep, racesSection),
  decode: step(decodeStep, decodeSection),
  markdown: step(markdownStep, markdownSection),
};

const { values: opt } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    seconds: { type: 'string', default: '60' },
    connections: { type: 'string', default: '50' },
    seed: { type: 'string', default: '8' },
    'no-wrangler': { type: 'boolean', default: false },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (opt.help) {
  console.log(`usage: npm run reliability -- [options]
  --quick            short run (fewer fuzz cases, ${'10'} s of load): a smoke test, numbers not comparable
  --only a,b         run only these steps (${Object.keys(STEPS).join(', ')})
  --seconds S        load duration per target (60)
  --connections N    load connections (50)
  --seed N           fast-check seed (8): the same seed sends the same requests
  --no-wrangler      skip the wrangler dev load run
  --out FILE         write the report here (docs/reliability.md; with --only or --quick: nothing unless given)`);
  process.exit(0);
}

const only = opt.only ? opt.only.split(',') : Object.keys(STEPS);
for (const s of only) {
  if (!STEPS[s]) {
    console.error(`unknown step ${s}`);
    process.exit(2);
  }
}
const cfg: ReliabilityConfig = {
  quick: opt.quick,
  seconds: opt.quick ? 10 : Number(opt.seconds),
  connections: Number(opt.connections),
  seed: Number(opt.seed),
  skipWrangler: opt['no-wrangler'],
};
const log: Log = (msg) => process.stdout.write(`reliability: ${msg}\n`);

installExitHandlers();

async function main(): Promise<void> {
  const began = performance.now();
  const sections: (Section & { seconds?: number })[] = [];
  let failures = 0;
  let broken = 0;
  for (const name of only) {
    log(`step ${name}`);
    const t0 = performance.now();
    try {
      const run = STEPS[name];
      if (!run) continue; // checked above
      const section = await run(cfg, log);
      failures += section.failures;
      sections.push({ ...section, seconds: (performance.now() - t0) / 1000 });
      log(`step ${name}: ${section.failures} failure(s) in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    } catch (err) {
      broken++;
      sections.push({
        title: name,
        body: `**Could not run:** ${describeError(err, 6)}`,
        failures: 0,
      });
      log(`step ${name} could not run: ${(err as Error | undefined)?.stack ?? err}`);
    }
  }
  closeAgent();
  const report = formatReport(sections, (performance.now() - began) / 1000);
  const out = opt.out ?? (opt.quick || opt.only ? null : path.join(root, 'docs/reliability.md'));
  if (out) {
    writeFileSync(out, report);
    log(`wrote ${path.relative(root, out)}`);
  } else {
    console.log(`\n${report}`);
  }
  cleanupNow();
  process.exit(broken ? 2 : failures ? 1 : 0);
}

function revision(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--', 'worker', 'drizzle', 'admin-qwik/src'], {
        cwd: root,
        encoding: 'utf8',
      }).trim() !== '';
    return dirty ? `${head} plus uncommitted changes under worker/, drizzle/ or admin-qwik/src` : head;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

function formatReport(sections: readonly (Section & { seconds?: number })[], seconds: number): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return [
    '# Reliability report',
    '',
    `Generated by \`npm run reliability${opt.quick ? ' -- --quick' : ''}\` on ${new Date().toISOString().slice(0, 16)}Z from ${revision()}: ${os.cpus().length} × ${cpu}, Node ${process.version}, ${Math.round(os.totalmem() / 2 ** 30)} GiB; ${seconds.toFixed(0)} s in all. Everything runs against 127.0.0.1.`,
    '',
    '```sh',
    'npm run reliability                  # everything (7 to 10 minutes on 2 cores), writes this file',
    'npm run reliability -- --quick       # smoke run, printed only',
    'npm run reliability -- --only fuzz,headers --seed 9',
    '```',
    '',
    'Servers: the built Node bundle (`dist/node/server.mjs`, what `npm start` runs) on a temp directory; PostgreSQL and MariaDB databases of their own on the shared servers (`reliability_<pid>_<n>`, dropped afterwards); s3rver and an SMTP catcher in-process; faults through a TCP proxy of our own, never by stopping a shared server.',
    '',
    '## Summary',
    '',
    '| step | failures | seconds |',
    '|---|---|---|',
    ...sections.map((s) => `| ${s.title} | ${s.failures} | ${s.seconds?.toFixed(0) ?? '—'} |`),
    '',
    '## What was found, and what became of it',
    '',
    ...FINDINGS.flatMap((f) => [
      `- **${f.status}** — ${f.what}`,
      ...(f.fix !== '—' ? [`  - Fix: ${f.fix}`] : []),
      ...(f.test !== '—' ? [`  - Test: ${f.test}`] : []),
    ]),
    '',
    '## Not run, or only partly',
    '',
    ...NOT_RUN.map((n) => `- ${n}`),
    '',
    ...sections.flatMap((s) => [`## ${s.title}`, '', s.body, '']),
  ].join('\n');
}

main().catch((err) => {
  console.error(err);
  cleanupNow();
  process.exit(2);
});
