import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crawlHeaders } from '../headers.ts';
import { createFixtures } from '../lib/fixtures.ts';
import { nodeServer, registerOwner } from '../lib/stack.ts';
import type { Section } from './step.ts';

type HeadersResult = Awaited<ReturnType<typeof crawlHeaders>>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MAX_UPLOAD_BYTES = 64 * 1024;

/** Step 2: security headers on every route and every kind of error, and the CSP. */
export async function headersStep(): Promise<HeadersResult> {
  const server = await nodeServer('Node + SQLite (headers)', { env: { MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) } });
  try {
    const token = await registerOwner(server);
    const fixtures = await createFixtures(server, token);
    let spaAsset: string | null = null;
    try {
      const js = readdirSync(path.join(root, 'admin-qwik/dist/build')).find((f) => f.endsWith('.js'));
      if (js) spaAsset = `/build/${js}`;
    } catch {
      // no admin build: the SPA rows still run against its fallback
    }
    return await crawlHeaders(server, token, fixtures, { maxUploadBytes: MAX_UPLOAD_BYTES, spaAsset });
  } finally {
    await server.stop();
  }
}

export function headersSection(r: HeadersResult): Section {
  const bad = r.rows.filter((row) => row.missing.length);
  const statuses = [...new Set(r.rows.map((row) => row.status))].sort((a, b) => a - b).join(', ');
  const lines = [
    `${r.rows.length} answers checked (every OpenAPI route with its method, HEAD and OPTIONS; 400, 401, 404, 413, 429, the adapter's own 400; original, variant, HEAD and 304 images; admin pages, a script file, the SPA's unknown page; health checks). Statuses seen: ${statuses}.`,
    '',
    `Expected on every answer, with the exact value of \`worker/src/http/middleware/security-headers.ts\`: ${r.expected.map((n) => `\`${n}\``).join(', ')}; an anonymous GET or HEAD of the API or an uploaded image may carry \`Cross-Origin-Resource-Policy: cross-origin\` instead (pages on the sites' own origins use them), the admin and every request with credentials never.`,
    '',
    `Answers missing or changing any of them: **${bad.length}**.`,
  ];
  for (const row of bad) lines.push(`- ${row.label} (${row.status}): ${row.missing.join(', ')}`);
  const limited = r.rows.find((row) => row.label.startsWith('429'));
  lines.push('', `The 429 carries \`Retry-After: ${limited?.retryAfter ?? 'MISSING'}\`.`);
  let high = 0;
  for (const c of r.csp) {
    lines.push('', `CSP \`${c.policy}\` — csp_evaluator findings:`, '');
    if (!c.findings.length) lines.push('- none');
    for (const f of c.findings) {
      if (f.severity === 'HIGH' || f.severity === 'HIGH_MAYBE') high++;
      lines.push(`- **${f.severity}** ${f.directive} ${f.value ? `\`${f.value}\`` : ''}: ${f.description}`);
    }
    lines.push(
      '',
      'Strict-CSP checks (nonce/hash based policies; informational, this policy is an allowlist one):',
      '',
    );
    for (const f of c.strict) lines.push(`- ${f.severity} ${f.directive}: ${f.description}`);
    if (!c.strict.length) lines.push('- none');
  }
  lines.push(
    '',
    `High-severity CSP findings (HIGH or HIGH_MAYBE): **${high}**.`,
    '',
    "The MEDIUM_MAYBE on `'self'` is the warning about same-origin user uploads: ours are served under `/static/uploadedImages/` only as `image/png|jpeg|gif|webp` with `nosniff` (step 1 checks every stored upload), and browsers refuse to run a `nosniff` response with an image type as a script.",
  );
  return {
    title: '2. Security headers and CSP',
    body: lines.join('\n'),
    failures: bad.length + high + (limited?.retryAfter ? 0 : 1),
  };
}
