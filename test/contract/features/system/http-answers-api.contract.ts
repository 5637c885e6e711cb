import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../../../worker/src/app/services.js';
import { createArticle, errorOf, registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';

const SOME_ID = '0190a000-0000-7000-8000-000000000000';
const JSON_TYPE = 'application/json; charset=utf-8';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** What the HTTP platform does for every route (worker/src/http): JSON's media type, and 405 for a known path's other methods. */
export function runHttpAnswersApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`http answers (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let articleId: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'owner@example.com')).token;
      articleId = (await createArticle(api, owner, { title: 'Answers' })).id;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('says `application/json; charset=utf-8` on every JSON answer: reads, cached reads, writes and errors', async () => {
      const cases: [string, string, number, { token?: string; json?: unknown }?][] = [
        ['GET', '/healthz', 200],
        ['GET', '/v1/system/version', 200],
        ['GET', '/v1/articles', 200],
        // again: a public read answered from a cache where the target keeps one
        ['GET', '/v1/articles', 200],
        ['GET', `/v1/articles/${articleId}`, 200, { token: owner }],
        ['POST', '/v1/tags', 201, { token: owner, json: { name: 'charset' } }],
        ['GET', '/v1/no-such-route', 404],
        ['GET', '/v1/articles?limit=0', 400],
        ['GET', '/v1/auth/me', 401],
        ['POST', '/healthz', 405],
      ];
      for (const [method, path, status, options] of cases) {
        const res = await api.request(path, { method, ...options });
        expect(res.status, `${method} ${path}`).toBe(status);
        expect(res.headers.get('content-type'), `${method} ${path}`).toBe(JSON_TYPE);
      }
    });

    it('answers a known path under a method it does not take with 405, `Allow` and the error body', async () => {
      // Every route whose pattern the concrete path fits counts (`/v1/user/invite` fits `/v1/user/{id}` too).
      const pattern = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
      const methodsAt = (url: string) => {
        const methods = new Set(ROUTES.filter((r) => pattern(r.path).test(url)).map((r) => r.method.toUpperCase()));
        if (methods.has('GET')) methods.add('HEAD');
        return methods;
      };
      for (const path of new Set(ROUTES.map((r) => r.path))) {
        const url = path.replace(/\{(\w+)\}/g, (_m, p: string) => (p === 'filename' ? `${SOME_ID}.png` : SOME_ID));
        const methods = methodsAt(url);
        const other = METHODS.find((m) => !methods.has(m));
        if (!other) continue;
        const res = await api.request(url, { method: other, token: owner });
        expect(res.status, `${other} ${path}`).toBe(405);
        expect(res.headers.get('allow'), `${other} ${path}`).toBe(METHODS.filter((m) => methods.has(m)).join(', '));
        const error = await errorOf(res);
        expect(error.code).toBe('method_not_allowed');
        expect(error.message).toContain(res.headers.get('allow'));
      }
    });

    it('keeps 404 for unknown paths under any method, and preflights answered', async () => {
      for (const [method, path] of [
        ['POST', '/v1/no-such-route'],
        ['DELETE', `/v1/articles/${SOME_ID}/no-such-thing`],
        ['POST', '/settings'],
        ['PUT', '/static/uploadedImages/a/b/c'],
      ] as const) {
        const res = await api.request(path, { method });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect((await errorOf(res)).code).toBe('not_found');
      }
      // A CORS preflight on a known path is still answered (cors.ts), not refused as a method.
      const preflight = await api.request('/v1/articles', {
        method: 'OPTIONS',
        headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      // A GET route takes HEAD.
      expect((await api.request('/v1/system/version', { method: 'HEAD' })).status).toBe(200);
    });
  });
}
