import { type DatabaseOutage, databaseOutage, type StorageOutage, storageOutage } from '../faults-dependencies.ts';
import { type DiskFull, diskFull, type KillRound, killDuringUpload } from '../faults-process.ts';
import { type SmtpStep, smtpDown } from '../faults-smtp.ts';
import { describeError, type Failed, type Log, type ReliabilityConfig, type Section } from './step.ts';

const DIALECTS = ['postgres', 'mysql'] as const;
type OutageKey = `${(typeof DIALECTS)[number]}${'Stopped' | 'Blackholed'}`;

/** Each part's result, or why it could not run. */
export type FaultsResult = { [K in OutageKey]: DatabaseOutage | Failed } & {
  storage: StorageOutage | Failed;
  kill: { uploadMs: number; rounds: KillRound[] } | Failed;
  disk: DiskFull | Failed;
  smtp: { steps: SmtpStep[] } | Failed;
};

/** Step 4: dependencies and the process itself failing. */
export async function faultsStep(cfg: ReliabilityConfig, log: Log): Promise<FaultsResult> {
  const guard = async <T>(name: string, fn: () => Promise<T>): Promise<T | Failed> => {
    log(`faults: ${name}`);
    try {
      return await fn();
    } catch (err) {
      return { error: describeError(err) };
    }
  };
  const timing = { outageMs: cfg.quick ? 4000 : 6000, afterMs: cfg.quick ? 8000 : 10_000 };
  const outage = (dialect: (typeof DIALECTS)[number], mode: 'cut' | 'blackhole') =>
    guard(`${dialect}${mode === 'cut' ? 'Stopped' : 'Blackholed'}`, () => databaseOutage(dialect, mode, timing));
  const postgresStopped = await outage('postgres', 'cut');
  const postgresBlackholed = await outage('postgres', 'blackhole');
  const mysqlStopped = await outage('mysql', 'cut');
  const mysqlBlackholed = await outage('mysql', 'blackhole');
  return {
    postgresStopped,
    postgresBlackholed,
    mysqlStopped,
    mysqlBlackholed,
    storage: await guard('storage', () => storageOutage()),
    kill: await guard('kill', () => killDuringUpload({ quick: cfg.quick })),
    disk: await guard('disk', () => diskFull()),
    smtp: await guard('smtp', () => smtpDown()),
  };
}

const j = (o: Record<string, unknown>) =>
  Object.entries(o)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');

function outageLines(title: string, r: DatabaseOutage | Failed): { lines: string[]; failures: number } {
  if ('error' in r) return { lines: [`**${title}: could not run:** ${r.error}`], failures: 1 };
  const d = r.during;
  const slowest = (d.slowest / 1000).toFixed(1);
  const recovered = Object.entries(r.recoveredAt)
    .map(([k, v]) => `${k} ${v === null ? 'never' : `${(v / 1000).toFixed(1)} s`}`)
    .join(', ');
  const lines = [
    `**${title}** — ${r.requests} requests from 6 clients; before the fault ${r.before.count} answers, ${r.before.failed} failed.`,
    `- In flight or sent during the outage: ${d.count}; by status: ${j(d.byStatus)}. First 503 ${r.firstRefusalMs === null ? 'never' : `${Math.round(r.firstRefusalMs)} ms`} after the fault; slowest answer ${slowest} s; **answers over 2 s: ${d.over2s}**; errors other than 503: ${d.notRefusedCleanly}.`,
    ...(d.slow.length
      ? [
          `- Slow ones: ${d.slow.map((s) => `${s.kind} sent ${s.startedAfterFailMs} ms after the fault → ${s.status} after ${(s.ms / 1000).toFixed(1)} s`).join('; ')}.`,
        ]
      : []),
    `- Sessions issued while the database was unreachable: ${r.tokensIssued}. Process alive, same pid, \`/healthz\` 200 afterwards: ${r.samePid ? 'yes' : 'NO'}.`,
    `- Recovery after the database came back (every later answer of that kind succeeded): ${recovered}. After-restore statuses: ${Object.entries(
      r.afterByKind,
    )
      .map(([k, v]) => `${k} {${j(v)}}`)
      .join('; ')}.`,
    `- Problems in answers (stack, secret, path, driver text, non-contract body): ${r.problems.length ? r.problems.join('; ') : 'none'}.`,
    ...(r.lastLog ? ['- **The server process died.** Its log ends:', '', '```', r.lastLog.slice(-3000), '```'] : []),
  ];
  const failures =
    d.over2s +
    d.notRefusedCleanly +
    r.tokensIssued +
    (r.samePid ? 0 : 1) +
    r.problems.length +
    Object.values(r.recoveredAt).filter((v) => v === null).length;
  return { lines, failures };
}

const stepTable = (steps: readonly { what: string; status: unknown; ms: number; ok: boolean; body: string }[]) => [
  '| check | answer | ms | as required |',
  '|---|---|---|---|',
  ...steps.map(
    (s) =>
      `| ${s.what} | ${s.status} | ${s.ms} | ${s.ok ? 'yes' : '**NO**'} ${s.ok ? '' : s.body.replace(/\|/g, '¦')} |`,
  ),
];

export function faultsSection(r: FaultsResult): Section {
  const lines: string[] = [];
  let failures = 0;
  const outages: [OutageKey, string][] = [];
  for (const [dialect, name] of [
    ['postgres', 'PostgreSQL'],
    ['mysql', 'MariaDB'],
  ] as const) {
    outages.push([`${dialect}Stopped`, `4a. ${name} stopped (proxy closed: connections reset, new ones refused)`]);
    outages.push([`${dialect}Blackholed`, `4a. ${name} black-holed (connections open, nothing gets through)`]);
  }
  for (const [key, title] of outages) {
    const o = outageLines(title, r[key]);
    lines.push(...o.lines, '');
    failures += o.failures;
  }
  lines.push('**4b. Object store (s3rver) unreachable during uploads**', '');
  if ('error' in r.storage) {
    lines.push(`could not run: ${r.storage.error}`);
    failures++;
  } else {
    lines.push(...stepTable(r.storage.steps));
    failures += r.storage.steps.filter((s) => !s.ok).length;
  }
  lines.push(
    '',
    '**4c. `kill -9` during an upload** (6 MiB PNG, SQLite + local directory; restarted on the same data after each kill)',
    '',
  );
  if ('error' in r.kill) {
    lines.push(`could not run: ${r.kill.error}`);
    failures++;
  } else {
    lines.push(
      `An uninterrupted upload took ${Math.round(r.kill.uploadMs)} ms from the first byte to the answer; the kills land around it.`,
      '',
      '| killed | client saw | image rows after restart | rows not served whole (bytes + SHA-256) | acknowledged upload lost | files under uploads/ |',
      '|---|---|---|---|---|---|',
    );
    for (const k of r.kill.rounds) {
      lines.push(
        `| ${k.point} | ${k.answer || 'connection reset'} | ${k.rows} | ${k.broken.length ? k.broken.join(', ') : 0} | ${k.lostAcknowledged ?? 'no'} | ${k.filesOnDisk} |`,
      );
      failures += k.broken.length + (k.lostAcknowledged ? 1 : 0);
    }
  }
  lines.push('', '**4d. Disk full** (the data directory on a 6 MiB tmpfs: SQLite and uploads)', '');
  if ('error' in r.disk) {
    lines.push(`could not run: ${r.disk.error}`);
    failures++;
  } else if (!r.disk.ran) lines.push(`Not run: ${r.disk.reason}.`);
  else {
    const statuses = r.disk.uploads.map((u) => u.status).join(', ');
    const refusal = r.disk.uploads.find((u) => u.status !== 201);
    lines.push(
      `- 12 uploads of 1 MiB: ${statuses}; the refusal: \`${refusal?.body ?? 'none'}\`.`,
      `- A 3 MiB article on the full disk: ${r.disk.bigWrite.status} \`${r.disk.bigWrite.body}\`.`,
      `- Rows afterwards: ${r.disk.rows}, not served whole: ${r.disk.broken.length}; reads while full: ${r.disk.readWhileFull}; after deleting two images through the API an upload is ${r.disk.afterFreeing}; alive: ${r.disk.alive ? 'yes' : 'NO'}.`,
    );
    const a = r.disk.activity;
    const bounded = a.fileBytes !== null && a.fileBytes <= a.configuredMax;
    lines.push(
      `- Activity log (\`ACTIVITY_LOG_FILE\` on the same tmpfs, \`ACTIVITY_LOG_MAX_BYTES=${a?.configuredMax}\`): 40 article writes while full answered ${j(a?.writesWhileFull ?? {})}; \`GET /v1/activity/summary\` ${a?.status}${a?.sizeBytes !== undefined ? ` (sizeBytes ${a.sizeBytes} of maxBytes ${a.maxBytes})` : ''}; the file holds ${a?.fileBytes ?? 'no'} bytes: **${bounded ? 'within its bound' : 'OVER ITS BOUND or missing'}**.`,
    );
    failures += bounded ? 0 : 1;
    failures += Object.keys(a?.writesWhileFull ?? {}).filter((st) => Number(st) >= 500 && Number(st) !== 503).length;
    const bad =
      r.disk.uploads.filter((u) => u.status !== 201 && u.status !== 503 && u.status !== 413).length +
      (r.disk.bigWrite.status >= 500 && r.disk.bigWrite.status !== 503 ? 1 : 0);
    failures += bad + r.disk.broken.length + (r.disk.alive ? 0 : 1) + (r.disk.afterFreeing === 201 ? 0 : 1);
  }
  lines.push('', '**4e. SMTP unreachable** (smtp-server behind the proxy)', '');
  if ('error' in r.smtp) {
    lines.push(`could not run: ${r.smtp.error}`);
    failures++;
  } else {
    lines.push(...stepTable(r.smtp.steps));
    lines.push(
      '',
      'Password reset first checks that the mail server answers (connect and log in, no message) before it looks the address up, so a dead server is a 503 with the same body for known and unknown addresses and no code is stored. The e-mail itself still goes after the response (so both kinds of address take the same time): a send that fails after a good check is only logged, and the user asks again. That residue is the deliberate trade-off against account enumeration.',
    );
    failures += r.smtp.steps.filter((s) => !s.ok).length;
  }
  return { title: '4. Faults', body: lines.join('\n'), failures };
}
