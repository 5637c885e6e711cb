import { createRequire } from 'node:module';
import type { Finding } from 'csp_evaluator/dist/finding.js';
import type { Fixtures } from './lib/fixtures.ts';
import { multipart, type RawRequest, type RawResponse, send } from './lib/http.ts';

/**
 * Step 2: the security headers on every kind of answer, and the CSP judged
 * by Google's csp_evaluator (the library behind csp-evaluator.withgoogle.com
 * and Lighthouse's CSP audit).
 */

const { SECURITY_HEADERS } = await import('../../worker/src/http/middleware/security-headers.ts');
const require = createRequire(import.meta.url);
// CommonJS without named exports Node can see: loaded with require, typed by the package's own declarations.
const { CspEvaluator, DEFAULT_CHECKS, STRICTCSP_CHECKS } =
  require('csp_evaluator/dist/evaluator.js') as typeof import('csp_evaluator/dist/evaluator.js');
const { CspParser } = require('csp_evaluator/dist/parser.js') as typeof import('csp_evaluator/dist/parser.js');
const { Severity } = require('csp_evaluator/dist/finding.js') as typeof import('csp_evaluator/dist/finding.js');

const SEVERITY_NAME: Record<number, string> = Object.fromEntries(
  Object.entries(Severity)
    .filter(([k]) => Number.isNaN(Number(k)))
    .map(([k, v]) => [v, k]),
);

/** Every route of the OpenAPI description, with real ids, each as GET/the operation's method, HEAD and OPTIONS. */
type LabelledRequest = RawRequest & { label: string };

function routeRequests(
  doc: { paths: Record<string, Record<string, unknown>> },
  fixtures: Fixtures,
  token: string,
): LabelledRequest[] {
  const out: LabelledRequest[] = [];
  const fill = (p: string) =>
    p
      .replace('/v1/articles/{id}', `/v1/articles/${fixtures.articleId}`)
      .replace('/v1/sites/{id}', `/v1/sites/${fixtures.siteId}`)
      .replace('/v1/authors/{id}', `/v1/authors/${fixtures.authorId}`)
      .replace('/v1/user/invite/{id}', `/v1/user/invite/${fixtures.invitationId}`)
      .replace('/v1/user/{id}', `/v1/user/${fixtures.adminId}`)
      .replace('/v1/media/{id}', `/v1/media/${fixtures.imageId}`)
      .replace('{filename}', fixtures.filename)
      .replace(/\{\w+\}/g, '00000000-0000-7000-8000-000000000000');
  for (const [p, item] of Object.entries(doc.paths)) {
    const path = fill(p);
    // Reads as they are; writes with an empty JSON body (a 400 or a refusal is as good an answer to check).
    for (const method of Object.keys(item)) {
      const m = method.toUpperCase();
      if (m === 'DELETE') continue; // would remove the fixtures the other requests need
      out.push({
        label: `${m} ${p}`,
        method: m,
        path,
        headers: { authorization: `Bearer ${token}`, ...(m === 'GET' ? {} : { 'content-type': 'application/json' }) },
        ...(m === 'GET' ? {} : { body: '{}' }),
      });
    }
    out.push({ label: `HEAD ${p}`, method: 'HEAD', path, headers: { authorization: `Bearer ${token}` } });
    out.push({ label: `OPTIONS ${p}`, method: 'OPTIONS', path });
  }
  return out;
}

function specialRequests(
  fixtures: Fixtures,
  token: string,
  maxUploadBytes: number,
  etag: string | undefined,
): LabelledRequest[] {
  const big = multipart(Buffer.alloc(maxUploadBytes + 1), { filename: 'big.png' });
  const img = `/static/uploadedImages/${fixtures.filename}`;
  return [
    { label: '404 API', path: '/v1/no-such-route' },
    { label: '404 unknown article', path: '/v1/articles/00000000-0000-7000-8000-000000000000' },
    { label: '404 static', path: '/static/nothing-here' },
    { label: '404 image', path: '/static/uploadedImages/00000000-0000-7000-8000-000000000000.png' },
    { label: '401 no token', path: '/v1/auth/me' },
    { label: '401 bad token', path: '/v1/auth/me', headers: { authorization: 'Bearer x.y.z' } },
    { label: '400 bad query', path: '/v1/articles?limit=0' },
    {
      label: '400 malformed JSON',
      method: 'POST',
      path: '/v1/articles',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{',
    },
    { label: '400 malformed request (backslash)', path: '/static/uploadedImages/..\\x' },
    {
      label: '413 upload',
      method: 'POST',
      path: `/v1/articles/${fixtures.articleId}/images`,
      headers: { authorization: `Bearer ${token}`, 'content-type': big.contentType },
      body: big.body,
    },
    { label: 'image original', path: img },
    { label: 'image HEAD', method: 'HEAD', path: img },
    { label: 'image variant', path: `${img}?w=160` },
    { label: 'image 304', path: img, headers: { 'if-none-match': etag ?? '' } },
    { label: 'image 400 bad width', path: `${img}?w=7` },
    { label: 'SPA /', path: '/' },
    { label: 'SPA HEAD /', method: 'HEAD', path: '/' },
    { label: 'SPA OPTIONS /', method: 'OPTIONS', path: '/' },
    { label: 'SPA /articles/', path: '/articles/' },
    { label: 'SPA /verify?code=x', path: '/verify?code=x' },
    { label: 'SPA unknown page', path: '/no/such/page' },
    { label: 'SPA favicon', path: '/favicon.svg' },
    { label: 'healthz', path: '/healthz' },
    { label: 'readyz', path: '/readyz' },
  ];
}

/** Six wrong passwords from one client: the sixth is over the login budget (5 per 15 min). */
async function rateLimited(origin: string): Promise<RawResponse> {
  const attempt = () =>
    send(origin, {
      method: 'POST',
      path: '/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@reliability.test', password: 'wrong password here' }),
    });
  for (let i = 0; i < 5; i++) await attempt();
  return attempt();
}

export interface HeaderRow {
  label: string;
  status: number;
  missing: string[];
  retryAfter?: string | undefined;
}

export interface CspFinding {
  severity: string;
  directive: string;
  value: string;
  description: string;
}

export interface CspVerdict {
  policy: string;
  findings: CspFinding[];
  strict: CspFinding[];
}

export async function crawlHeaders(
  server: { url: string },
  token: string,
  fixtures: Fixtures,
  { maxUploadBytes, spaAsset }: { maxUploadBytes: number; spaAsset: string | null | undefined },
): Promise<{ rows: HeaderRow[]; csp: CspVerdict[]; expected: string[] }> {
  const doc = JSON.parse((await send(server.url, { path: '/v1/openapi.json' })).body.toString('utf8'));
  const head = await send(server.url, { method: 'HEAD', path: `/static/uploadedImages/${fixtures.filename}` });
  const requests = [
    ...routeRequests(doc, fixtures, token),
    ...specialRequests(fixtures, token, maxUploadBytes, head.headers.etag),
    ...(spaAsset ? [{ label: 'SPA script file', path: spaAsset }] : []),
  ];
  const rows: HeaderRow[] = [];
  const csps = new Set<string>();
  for (const req of requests) {
    const res = await send(server.url, { method: 'GET', headers: {}, ...req });
    rows.push({ label: req.label, status: res.status, missing: missingHeaders(res.headers, sharedRead(req)) });
    const csp = res.headers['content-security-policy'];
    if (csp) csps.add(String(csp));
  }
  const limited = await rateLimited(server.url);
  rows.push({
    label: '429 login rate limit',
    status: limited.status,
    missing: missingHeaders(limited.headers, false),
    retryAfter: limited.headers['retry-after'],
  });
  return { rows, csp: [...csps].map(evaluateCsp), expected: SECURITY_HEADERS.map(([n]) => n) };
}

/**
 * An anonymous read of the API or of an uploaded image may be used by pages
 * on other origins: there `Cross-Origin-Resource-Policy` may be
 * `cross-origin` (security-headers.ts, shareablePublicRead). The admin and
 * every request with credentials keep `same-origin`.
 */
function sharedRead(req: LabelledRequest): boolean {
  const method = (req.method ?? 'GET').toUpperCase();
  const anonymous = !Object.keys(req.headers ?? {}).some((h) => h.toLowerCase() === 'authorization');
  const api = /^\/(v1|static)\/|^\/(healthz|readyz)$/.test(req.path);
  return anonymous && api && (method === 'GET' || method === 'HEAD');
}

function missingHeaders(headers: RawResponse['headers'], shared: boolean): string[] {
  return SECURITY_HEADERS.filter(([name, value]) => {
    const got = headers[name.toLowerCase()];
    if (name === 'Cross-Origin-Resource-Policy' && shared) return got !== value && got !== 'cross-origin';
    return got !== value;
  }).map(([name]) => name);
}

export function evaluateCsp(policy: string): CspVerdict {
  const parsed = new CspParser(policy).csp;
  // The evaluator checks the policy as written and as effective; one weakness can come back twice.
  const unique = (list: Finding[]) => [
    ...new Map(list.map((f) => [`${f.severity}|${f.directive}|${f.value}|${f.description}`, f])).values(),
  ];
  const describe = (f: Finding): CspFinding => ({
    severity: SEVERITY_NAME[f.severity] ?? String(f.severity),
    directive: f.directive,
    value: f.value ?? '',
    description: f.description,
  });
  return {
    policy,
    findings: unique(new CspEvaluator(parsed).evaluate(DEFAULT_CHECKS)).map(describe),
    strict: unique(new CspEvaluator(parsed).evaluate(STRICTCSP_CHECKS)).map(describe),
  };
}
