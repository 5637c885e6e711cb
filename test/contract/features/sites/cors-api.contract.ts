import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../../../worker/src/http/middleware/security-headers.js';
import { createArticle, registerOwner, upload } from '../../../support/api-flows.js';
import type { ApiHarness, SetupApi } from '../../../support/api-harness.js';
import { PNG_1x1 } from '../../../support/images.js';

const SITE = 'https://blog.example';

const preflight = (api: ApiHarness, path: string, origin: string, method = 'GET') =>
  api.request(path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization, if-match',
    },
  });

const corp = (res: { headers: Headers }) => res.headers.get('cross-origin-resource-policy');

/** Every answer carries the security headers, these included (CORP aside, which this suite checks itself). */
function expectSecurityHeaders(res: { headers: Headers }, label: string) {
  for (const [name, value] of SECURITY_HEADERS) {
    if (name !== 'Cross-Origin-Resource-Policy') expect(res.headers.get(name), `${label}: ${name}`).toBe(value);
  }
}

/** Cross-origin access per docs/api.md#cross-origin: who may call from a browser, and what may be embedded. */
export function runCorsApiContract(name: string, setup: SetupApi) {
  describe(`cross-origin access (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let siteId: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'owner@example.com')).token;
      const res = await api.request('/v1/sites', {
        method: 'POST',
        token: owner,
        json: { name: 'Blog', baseUrl: `${SITE}/articles` },
      });
      siteId = (await res.json()).site.id;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('answers a preflight from a site’s origin with what may be sent, and one from elsewhere with nothing', async () => {
      for (const path of [
        '/v1/articles',
        '/v1/articles/0190a000-0000-7000-8000-000000000000',
        '/static/uploadedImages/x.png',
      ]) {
        const res = await preflight(api, path, SITE, 'PATCH');
        expect(res.status, path).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
        const methods = res.headers.get('access-control-allow-methods')!.split(/,\s*/);
        expect(methods).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']));
        expect(res.headers.get('access-control-allow-headers')!.split(/,\s*/).sort()).toEqual([
          'authorization',
          'content-type',
          'if-match',
          'if-none-match',
        ]);
        expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
        expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
        expect(res.headers.get('access-control-allow-credentials')).toBeNull();
        expectSecurityHeaders(res, `OPTIONS ${path}`);
      }
      // An OPTIONS without Access-Control-Request-Method is no preflight, whoever sends it: the router's 405.
      const bare = await api.request('/v1/articles', { method: 'OPTIONS', headers: { origin: SITE } });
      expect(bare.status).toBe(405);
      const other = await preflight(api, '/v1/articles', 'https://evil.example');
      expect(other.status).toBe(204);
      expect([...other.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
      expect(other.headers.get('vary')).toMatch(/\bOrigin\b/);
    });

    it('lets a site’s pages read answers, and the headers a frontend needs', async () => {
      const res = await api.request('/v1/articles', { headers: { origin: SITE } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
      expect(res.headers.get('access-control-expose-headers')).toMatch(/\bETag\b/);
      expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expectSecurityHeaders(res, 'GET /v1/articles from a site');
      // Twice: an answer the read cache serves carries them too.
      const again = await api.request('/v1/articles', { headers: { origin: SITE } });
      expect(again.headers.get('access-control-allow-origin')).toBe(SITE);
      const elsewhere = await api.request('/v1/articles', { headers: { origin: 'https://evil.example' } });
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
      // Errors too: a script must be able to read why.
      const missing = await api.request('/v1/articles/0190a000-0000-7000-8000-000000000000', {
        headers: { origin: SITE },
      });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('access-control-allow-origin')).toBe(SITE);
    });

    it('follows site writes at once', async () => {
      const moved = 'https://moved.example';
      await api.request(`/v1/sites/${siteId}`, { method: 'PATCH', token: owner, json: { baseUrl: `${moved}/x` } });
      expect((await preflight(api, '/v1/articles', SITE)).headers.get('access-control-allow-origin')).toBeNull();
      expect((await preflight(api, '/v1/articles', moved)).headers.get('access-control-allow-origin')).toBe(moved);
      const created = await api.request('/v1/sites', {
        method: 'POST',
        token: owner,
        json: { name: 'Shop', baseUrl: 'http://localhost:4321' },
      });
      const shop = (await created.json()).site.id;
      expect(
        (await preflight(api, '/v1/articles', 'http://localhost:4321')).headers.get('access-control-allow-origin'),
      ).toBe('http://localhost:4321');
      await api.request(`/v1/sites/${shop}`, { method: 'DELETE', token: owner });
      expect(
        (await preflight(api, '/v1/articles', 'http://localhost:4321')).headers.get('access-control-allow-origin'),
      ).toBeNull();
      await api.request(`/v1/sites/${siteId}`, {
        method: 'PATCH',
        token: owner,
        json: { baseUrl: `${SITE}/articles` },
      });
    });

    it('lets other origins embed public reads and uploaded images, but not authenticated answers or the admin', async () => {
      const article = await createArticle(api, owner, { title: 'Shared' });
      await api.request(`/v1/articles/${article.id}/publish`, { method: 'POST', token: owner });
      const uploaded = await upload(api, owner, article.id, PNG_1x1, 'dot.png', 'image/png');
      expect(corp(uploaded)).toBe('same-origin');
      const { image } = await uploaded.json();
      const path = new URL(image.url, 'http://x').pathname;
      for (const p of [path, `${path}?w=160`]) {
        const res = await api.request(p);
        expect(res.status, p).toBe(200);
        expect(corp(res), p).toBe('cross-origin');
        expectSecurityHeaders(res, p);
      }
      for (const p of [
        `/v1/articles/${article.id}`,
        '/v1/articles',
        `/v1/sites/${siteId}`,
        `/v1/sites/${siteId}/feed.xml`,
      ]) {
        const res = await api.request(p);
        expect(res.status, p).toBe(200);
        expect(corp(res), p).toBe('cross-origin');
        const authed = await api.request(p, { token: owner });
        expect(corp(authed), `${p} with a token`).toBe('same-origin');
      }
      expect(corp(await api.request('/v1/auth/me', { token: owner }))).toBe('same-origin');
      expect(corp(await api.request('/'))).toBe('same-origin');
      expect(corp(await api.request('/v1/webhooks', { token: owner }))).toBe('same-origin');
    });
  });

  describe(`CORS_ORIGINS (${name})`, () => {
    it('allows the listed origins without a site, and * as * without credentials', async () => {
      const listed = await setup({ CORS_ORIGINS: 'https://app.example, http://127.0.0.1:5173' });
      try {
        for (const origin of ['https://app.example', 'http://127.0.0.1:5173']) {
          const res = await preflight(listed, '/v1/articles', origin);
          expect(res.headers.get('access-control-allow-origin')).toBe(origin);
        }
        expect(
          (await preflight(listed, '/v1/articles', 'https://app.example:8443')).headers.get(
            'access-control-allow-origin',
          ),
        ).toBeNull();
      } finally {
        await listed.cleanup();
      }
      const any = await setup({ CORS_ORIGINS: '*' });
      try {
        const res = await preflight(any, '/v1/articles', 'https://anywhere.example', 'POST');
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('access-control-allow-credentials')).toBeNull();
        const read = await any.request('/v1/articles', { headers: { origin: 'https://anywhere.example' } });
        expect(read.headers.get('access-control-allow-origin')).toBe('*');
        expect(read.headers.get('access-control-allow-credentials')).toBeNull();
      } finally {
        await any.cleanup();
      }
    });
  });
}
