import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness, ApiTarget } from '../../../support/api-harness.js';

export const REQUIRED_HEADERS = [
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'strict-transport-security',
];

export function expectSecurityHeaders(res: Pick<Response, 'headers'>, label: string) {
  for (const h of REQUIRED_HEADERS) expect(res.headers.get(h), `${label}: ${h}`).toBeTruthy();
  const csp = res.headers.get('content-security-policy')!;
  const scriptSrc = /script-src ([^;]+)/.exec(csp)?.[1] ?? '';
  expect(scriptSrc, label).not.toContain("'unsafe-inline'");
  expect(scriptSrc, label).toContain("'wasm-unsafe-eval'");
  for (const d of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) expect(csp, label).toContain(d);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
}

/** Health, readiness, version, the admin shell, and the headers on every kind of response. */
export function runSystemApiContract(name: string, setup: () => Promise<ApiHarness>, { target }: ApiTarget) {
  describe(`system and headers (${name})`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await setup();
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('reports health, readiness and version', async () => {
      expect(await (await api.request('/healthz')).json()).toEqual({ ok: true });
      const ready = await api.request('/readyz');
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ ok: true, checks: { database: true, storage: true } });
      const version = await (await api.request('/v1/system/version')).json();
      expect(version).toEqual({
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        commit: expect.any(String),
        builtAt: expect.any(String),
        target,
      });
    });

    it('serves the admin pages, deep links included, and its not-found page for unknown pages', async () => {
      for (const path of ['/', '/settings', '/articles/edit', '/articles/new']) {
        const res = await api.request(path);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('content-type'), path).toContain('text/html');
        expect(await res.text(), path).toContain('<html');
      }
      // Every screen is a prerendered page: any other address is the not-found page, never the dashboard.
      const unknown = await api.request('/articles/0190a000-0000-7000-8000-000000000000');
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toContain('text/html');
      expect(await unknown.text()).toContain('Page not found');
    });

    it('puts the security headers on every kind of response', async () => {
      const cases: [string, string, number][] = [
        ['GET', '/v1/system/version', 200],
        ['GET', '/healthz', 200],
        ['GET', '/v1/no-such-route', 404],
        ['GET', '/v1/articles?limit=0', 400],
        ['GET', '/v1/auth/me', 401],
        ['HEAD', '/v1/system/version', 200],
        ['OPTIONS', '/v1/articles', 405],
        ['GET', '/static/uploadedImages/nope.png', 404],
        ['GET', '/', 200],
        ['GET', '/settings', 200],
        ['HEAD', '/', 200],
      ];
      for (const [method, path, status] of cases) {
        const res = await api.request(path, { method });
        expect(res.status, `${method} ${path}`).toBe(status);
        expectSecurityHeaders(res, `${method} ${path}`);
      }
    });

    it('reports the update status to verified users; checking without a feed, applying and rolling back without a supervisor are 409s', async () => {
      expect((await api.request('/v1/system/update')).status).toBe(401);
      const owner = await registerOwner(api, 'updates@example.com');
      const res = await api.request('/v1/system/update', { token: owner.token });
      expect(res.status).toBe(200);
      const version = (await (await api.request('/v1/system/version')).json()).version;
      expect(await res.json()).toEqual({
        current: version,
        latest: null,
        available: false,
        staged: null,
        lastCheckedAt: null,
        notes: null,
        supervised: false,
        previous: null,
        pending: null,
        lastApply: null,
        // release-keys.json pins no active key (docs/releases.md, "Pinning keys").
        trustedKeys: 0,
      });
      const check = await api.request('/v1/system/update/check', { method: 'POST', token: owner.token });
      expect(check.status).toBe(409);
      expect((await check.json()).error.code).toBe('conflict');

      // Apply and rollback without a supervisor: a 409 that says what to do instead.
      const { target } = await (await api.request('/v1/system/version')).json();
      for (const op of ['apply', 'rollback']) {
        const res = await api.request(`/v1/system/update/${op}`, { method: 'POST', token: owner.token });
        expect(res.status).toBe(409);
        const { error } = await res.json();
        expect(error.code).toBe('conflict');
        // Workers: an update is a deployment (wrangler). Node here runs without the supervisor.
        expect(error.message).toContain(target === 'workers' ? 'wrangler rollback' : 'NODE_ENV=production npm start');
      }
    });

    it('never shows a stack trace or internal detail in an error body', async () => {
      const res = await api.request('/v1/auth/login', {
        method: 'POST',
        body: '{'.repeat(10_000),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(text).not.toMatch(/at .*\.(ts|js):\d+|node_modules|Error:/);
    });
  });
}
