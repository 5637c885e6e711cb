import { type FuzzResult, fuzzOperations } from '../fuzz.ts';
import { createFixtures } from '../lib/fixtures.ts';
import { send } from '../lib/http.ts';
import { nodeServer, registerOwner } from '../lib/stack.ts';
import { fuzzUploads, type UploadResult } from '../uploads.ts';
import type { Log, ReliabilityConfig, Section } from './step.ts';

const MAX_UPLOAD_BYTES = 1024 * 1024;

/** Step 1: hostile input against the real Node server on SQLite. */
export interface FuzzStepResult {
  fuzz: FuzzResult;
  uploads: { cases: UploadResult[]; escaped: string[] };
  alive: boolean;
  unhandled: string[];
  unhandledCount: number;
}

export async function fuzzStep(cfg: ReliabilityConfig, log: Log): Promise<FuzzStepResult> {
  const server = await nodeServer('Node + SQLite (fuzz)', { env: { MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) } });
  try {
    const token = await registerOwner(server);
    const fixtures = await createFixtures(server, token);
    const uploads = await fuzzUploads(server, token, fixtures.offlineArticleId, { maxUploadBytes: MAX_UPLOAD_BYTES });
    log(
      `uploads: ${uploads.cases.length} cases, ${uploads.cases.filter((c) => c.problems.length).length} with problems`,
    );
    const fuzz = await fuzzOperations(server, token, fixtures, {
      perOperation: cfg.quick ? 25 : 300,
      randomRequests: cfg.quick ? 150 : 1500,
      seed: cfg.seed,
      deadline: Date.now() + (cfg.quick ? 60_000 : 240_000),
      log,
    });
    const health = await send(server.url, { path: '/healthz' });
    const unhandled = server
      .log()
      .split('\n')
      .filter((l) => l.includes('unhandled error'));
    return {
      fuzz,
      uploads,
      alive: health.status === 200,
      unhandled: unhandled.slice(0, 5),
      unhandledCount: unhandled.length,
    };
  } finally {
    await server.stop();
  }
}

const code = (s: unknown) => `\`${String(s).replace(/`/g, 'ˋ').replace(/\n/g, '⏎').replace(/\|/g, '¦')}\``;

export function fuzzSection(r: FuzzStepResult): Section {
  const f = r.fuzz;
  const statuses = Object.entries(f.byStatus)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
  const count = (pred: (status: number) => boolean) =>
    Object.entries(f.byStatus)
      .filter(([s]) => pred(Number(s)))
      .reduce((a, [, n]) => a + n, 0);
  const fivexx = count((s) => s >= 500);
  const lines = [
    `- ${f.operations.length} operations from \`/v1/openapi.json\`, ${f.requests} requests in ${f.seconds.toFixed(1)} s${f.skipped ? ` (${f.skipped} not sent: time budget)` : ''}; answers by status: ${statuses}.`,
    `- 5xx: **${fivexx}**. Answers with a problem (5xx, no answer, stack trace, JWT secret, server file path, SQL/driver text, an API error without the contract body): **${f.problems.reduce((a, p) => a + p.count, 0)}**.`,
    `- Refused by Node's own HTTP parser before the app (not counted as problems): ${count((s) => s === 431)} × 431 (request line and headers over 16 KiB), ${count((s) => s === 0)} connections dropped (an unknown method, or a body still being sent after that 431).`,
    `- Server alive afterwards (\`/healthz\` 200): **${r.alive ? 'yes' : 'NO'}**; "unhandled error" lines in its log: **${r.unhandledCount}**.`,
  ];
  for (const p of f.problems) {
    const [e] = p.examples;
    const example = e
      ? `, e.g. ${code(`${e.method} ${e.path}`)}${e.body ? ` body ${code(e.body)}` : ''} → ${e.status} ${code(e.answer.slice(0, 160))}`
      : '';
    lines.push(`  - ${p.label} — ${p.problem} (${p.count}×)${example}`);
  }
  const up = r.uploads;
  lines.push('', '| upload | status | served as | problems |', '|---|---|---|---|');
  for (const c of up.cases)
    lines.push(
      `| ${c.name.replace(/\|/g, '¦')} | ${c.status} | ${c.served ?? '—'} | ${c.problems.length ? c.problems.join('; ') : 'none'} |`,
    );
  lines.push(
    '',
    `Files written outside the upload directory: **${up.escaped.length ? up.escaped.join(', ') : 'none'}**.`,
  );
  const failures =
    f.problems.length +
    up.cases.filter((c) => c.problems.length).length +
    up.escaped.length +
    (r.alive ? 0 : 1) +
    r.unhandledCount;
  return { title: '1. Hostile input', body: lines.join('\n'), failures };
}
