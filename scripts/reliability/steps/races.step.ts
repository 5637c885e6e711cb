import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../lib/stack.ts';
import type { Log, ReliabilityConfig, Section } from './step.ts';

/**
 * Step 5: the races are already API contract tests, run against every
 * target (test/contract/features/accounts/auth-api.contract.ts, "20 parallel registrations and
 * verifications make exactly one owner"; test/contract/features/accounts/users-api.contract.ts,
 * "20 parallel accepts of one code make one account"; and "registrations in
 * flight while the first account verifies"). Rather than copy
 * them, this step runs exactly those tests on SQLite, MariaDB, PostgreSQL
 * (Node) and D1 (workerd) and reports their results.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const vitest = path.join(root, 'node_modules/.bin/vitest');
const TARGETS: [project: string, files: string[]][] = [
  [
    'node',
    ['test/node/api/sqlite-local.test.ts', 'test/node/api/mysql-local.test.ts', 'test/node/api/postgres-s3.test.ts'],
  ],
  ['workers', ['test/workers/api.test.ts']],
];

const RACES = '20 parallel|while the first account verifies';

export type RaceResult =
  | { project: string; error: string }
  | { project: string; file: string; name: string; status: string; ms: number; error?: undefined };

/** The parts of vitest's JSON report read here. */
interface VitestReport {
  testResults: {
    name: string;
    assertionResults: { fullName: string; status: string; duration?: number | null }[];
  }[];
}

export async function racesStep(_cfg: ReliabilityConfig, log: Log): Promise<RaceResult[]> {
  const results: RaceResult[] = [];
  for (const [project, files] of TARGETS) {
    const out = path.join(tempDir('races'), 'vitest.json');
    log(`races: vitest --project ${project} -t "${RACES}"`);
    const run = spawnSync(
      vitest,
      ['run', '--project', project, ...files, '-t', RACES, '--reporter=json', `--outputFile=${out}`],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
        timeout: 300_000,
      },
    );
    let report: VitestReport;
    try {
      report = JSON.parse(readFileSync(out, 'utf8'));
    } catch {
      results.push({ project, error: `vitest exited ${run.status}: ${(run.stdout + run.stderr).slice(-800)}` });
      continue;
    }
    for (const file of report.testResults) {
      for (const t of file.assertionResults.filter((a) => a.status !== 'skipped' && a.status !== 'pending')) {
        results.push({
          project,
          file: path.relative(root, file.name),
          name: t.fullName,
          status: t.status,
          ms: Math.round(t.duration ?? 0),
        });
      }
    }
  }
  return results;
}

export function racesSection(results: RaceResult[]): Section {
  const lines = [
    'The races are API contract tests already (`test/contract/features/accounts/auth-api.contract.ts`: "20 parallel registrations and verifications make exactly one owner" — exactly one 200 among 20 verifications, the owner is that one, every other session dead; `test/contract/features/accounts/users-api.contract.ts`: "20 parallel accepts of one code make one account" — one 201, nineteen 400, one user). This step runs exactly those tests (`vitest -t "20 parallel"`) on every database instead of duplicating them:',
    '',
    '| project | file | test | result | ms |',
    '|---|---|---|---|---|',
  ];
  let failures = 0;
  for (const r of results) {
    if (r.error !== undefined) {
      failures++;
      lines.push(
        `| ${r.project} | — | could not run: ${r.error.replace(/\n/g, ' ').replace(/\|/g, '¦')} | **failed** | |`,
      );
      continue;
    }
    if (r.status !== 'passed') failures++;
    lines.push(
      `| ${r.project} | ${r.file} | ${r.name.replace(/\|/g, '¦')} | ${r.status === 'passed' ? 'passed' : `**${r.status}**`} | ${r.ms} |`,
    );
  }
  if (!results.some((r) => !r.error)) failures++;
  return { title: '5. Races', body: lines.join('\n'), failures };
}
