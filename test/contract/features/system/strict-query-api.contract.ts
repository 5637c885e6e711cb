import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../../../worker/src/app/services.js';
import { queryNames } from '../../../../worker/src/http/route.js';
import { createArticle, errorOf, registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';

const SOME_ID = '0190a000-0000-7000-8000-000000000000';

/** Every route refuses a query parameter it does not declare, with 400 invalid_request naming it. */
export function runStrictQueryApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`strict query strings (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let articleId: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'owner@example.com')).token;
      articleId = (await createArticle(api, owner, { title: 'Strict' })).id;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    // Rate-limited routes are left out: a refused attempt may still spend the client's budget.
    const routes = ROUTES.filter((r) => !r.rateLimit);

    it.each(routes.map((r) => [r.method.toUpperCase(), r.path, r] as const))(
      '%s %s refuses an unknown parameter, naming it',
      async (method, path, route) => {
        const url = path.replace(/\{(\w+)\}/g, (_m, p: string) =>
          p === 'filename' ? `${SOME_ID}.png` : p === 'id' ? articleId : SOME_ID,
        );
        // A declared parameter beside it changes nothing.
        const query = queryNames(route).has('limit') ? 'limit=5&slugg=hello' : 'slugg=hello';
        const res = await api.request(`${url}?${query}`, {
          method,
          token: owner,
          ...(method !== 'GET' && method !== 'DELETE' && { json: {} }),
        });
        expect(res.status).toBe(400);
        const error = await errorOf(res);
        expect(error.code).toBe('invalid_request');
        expect(error.message).toContain('slugg');
      },
    );

    it('ignores campaign tags (utm_*) on every route, and only those', async () => {
      const tagged = 'utm_source=newsletter&utm_medium=email&utm_campaign=autumn';
      const plain = await api.request(`/v1/articles/${articleId}`, { token: owner });
      const withTags = await api.request(`/v1/articles/${articleId}?${tagged}`, { token: owner });
      expect(withTags.status).toBe(200);
      expect(await withTags.json()).toEqual(await plain.json());
      const list = await api.request(`/v1/articles?limit=5&${tagged}`, { token: owner });
      expect(list.status).toBe(200);
      // Look-alikes are still unknown parameters.
      for (const name of ['utm', 'utmsource', 'UTM_source']) {
        const res = await api.request(`/v1/articles/${articleId}?${name}=x`, { token: owner });
        expect(res.status).toBe(400);
        expect((await errorOf(res)).message).toContain(name);
      }
    });

    it('still answers declared parameters, and nothing changed on refused writes', async () => {
      expect((await api.request('/v1/articles?limit=5&status=offline', { token: owner })).status).toBe(200);
      expect((await api.request(`/v1/articles/${articleId}`, { token: owner })).status).toBe(200);
    });
  });
}
