import { databaseOutage, storageOutage } from '../faults-dependencies.ts';
import { diskFull, killDuringUpload, smtpDown } from '../faults-process.ts';

/** Step 4: dependencies and the process itself failing. */
export async function faultsStep(cfg, log) {
  const out = {};
  const guard = async (name, fn) => {
    log(`faults: ${name}`);
    try {
      out[name] = await fn();
    } catch (err) {
      out[name] = {
        error: String(err?.stack ?? err)
          .split('\n')
          .slice(0, 4)
          .join(' '),
      };
    }
  };
  const timing = { outageMs: cfg.quick ? 4000 : 6000, afterMs: cfg.quick ? 8000 : 10_000 };
  for (const dialect of ['postgres', 'mysql']) {
    await guard(`${dialect}Stopped`, () => databaseOutage(dialect, 'cut', timing));
    await guard(`${dialect}Blackholed`, () => databaseOutage(dialect, 'blackhole', timing));
  }
  await guard('storage', () => storageOutage());
  await guard('kill', () => killDuringUpload({ quick: cfg.quick }));
  await guard('disk', () => diskFull());
  await guard('smtp', () => smtpDown());
  return out;
}

const j = (o) =>
  Object.entries(o)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');

function outageLines(title, r) {
  if (r.error) return { lines: [`**${title}: could not run:** ${r.error}`], failures: 1 };
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

const stepTable = (steps) => [
  '| check | answer | ms | as required |',
  '|---|---|---|---|',
  ...steps.map(
    (s) =>
      `| ${s.what} | ${s.status} | ${s.ms} | ${s.ok ? 'yes' : '**NO**'} ${s.ok ? '' : s.body.replace(/\|/g, '¦')} |`,
  ),
];

export function faultsSection(r) {
  const lines = [];
  let failures = 0;
  const outages = [];
  for (const [dialect, name] of [
    ['postgres', 'PostgreSQL'],
    ['mysql', 'MariaDB'],
  ]) {
    outages.push([`${dialect}Stopped`, `4a. ${name} stopped (proxy closed: connections reset, new ones refused)`]);
    outages.push([`${dialect}Blackholed`, `4a. ${name} black-holed (connections open, nothing gets through)`]);
  }
  for (const [key, title] of outages) {
    const o = outageLines(title, r[key]);
    lines.push(...o.lines, '');
    failures += o.failures;
  }
  lines.push('**4b. Object store (s3rver) unreachable during uploads**', '');
  if (r.storage.error) lines.push(`could not run: ${r.storage.error}`), failures++;
  else {
    lines.push(...stepTable(r.storage.steps));
    failures += r.storage.steps.filter((s) => !s.ok).length;
  }
  lines.push(
    '',
    '**4c. `kill -9` during an upload** (6 MiB PNG, SQLite + local directory; restarted on the same data after each kill)',
    '',
  );
  if (r.kill.error) lines.push(`could not run: ${r.kill.error}`), failures++;
  else {
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
  if (r.disk.error) lines.push(`could not run: ${r.disk.error}`), failures++;
  else if (!r.disk.ran) lines.push(`Not run: ${r.disk.reason}.`);
  else {
    const statuses = r.disk.uploads.map((u) => u.status).join(', ');
    const refusal = r.disk.uploads.find((u) => u.status !== 201);
    lines.push(
      `- 12 uploads of 1 MiB: ${statuses}; the refusal: \`${refusal?.body ?? 'none'}\`.`,
      `- A 3 MiB article on the full disk: ${r.disk.bigWrite.status} \`${r.disk.bigWrite.body}\`.`,
      `- Rows afterwards: ${r.disk.rows}, not served whole: ${r.disk.broken.length}; reads while full: ${r.disk.readWhileFull}; after deleting two images through the API an upload is ${r.disk.afterFreeing}; alive: ${r.disk.alive ? 'yes' : 'NO'}.`,
    );
    const a = r.disk.activity;
    const bounded = a && a.fileBytes !== null && a.fileBytes <= a.configuredMax;
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
  if (r.smtp.error) lines.push(`could not run: ${r.smtp.error}`), failures++;
  else {
    lines.push(...stepTable(r.smtp.steps));
    lines.push(
      '',
      'Password reset first checks that the mail server answers (connect and log in, no message) before it looks the address up, so a dead server is a 503 with the same body for known and unknown addresses and no code is stored. The e-mail itself still goes after the response (so both kinds of address take the same time): a send that fails after a good check is only logged, and the user asks again. That residue is the deliberate trade-off against account enumeration.',
    );
    failures += r.smtp.steps.filter((s) => !s.ok).length;
  }
  return { title: '4. Faults', body: lines.join('\n'), failures };
}
