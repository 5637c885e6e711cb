import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../worker/src/app/services.js';
import { createArticle, errorOf, registerOwner } from '../support/api-flows.js';
import type { ApiHarness } from '../support/api-harness.js';

const CHUNK = 16 * 1024;

/**
 * A JSON-looking body of `total` bytes made only when the reader pulls, so a
 * test can tell how much of it the server read before it answered.
 */
function countingBody(total: number) {
  let pulled = 0;
  const chunk = new TextEncoder().encode('x'.repeat(CHUNK));
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled === 0) {
          pulled += 9;
          controller.enqueue(new TextEncoder().encode('{"body":"'));
          return;
        }
        if (pulled >= total) {
          controller.close();
          return;
        }
        pulled += chunk.length;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

const ARTICLE_WRITES = new Set(['post /v1/articles', 'patch /v1/articles/{id}', 'put /v1/articles/{id}/seo']);
const JSON_OPERATIONS = ROUTES.filter((op) => op.body).map((op) => ({
  key: `${op.method} ${op.path}`,
  method: op.method.toUpperCase(),
  path: op.path,
  article: ARTICLE_WRITES.has(`${op.method} ${op.path}`),
}));

/**
 * Every JSON route refuses a body over its limit with 413 while the body
 * streams in (MAX_JSON_BYTES; article writes MAX_ARTICLE_BYTES), before the
 * route buffers or parses it (a 300 MiB registration took the
 * server to 1.3 GB).
 */
export function runBodyLimitsApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`request body limits (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let articleId: string;
    let limits: { json: number; article: number };
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'limits@example.com')).token;
      articleId = (await createArticle(api, owner)).id;
      limits = { json: api.deps.settings.maxJsonBytes, article: api.deps.settings.maxArticleBytes };
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const pathOf = (path: string) =>
      path.replace('{id}', path.startsWith('/v1/articles/') ? articleId : '0190a000-0000-7000-8000-000000000000');

    it('covers the small routes and the article writes', () => {
      expect(JSON_OPERATIONS.filter((op) => op.article)).toHaveLength(3);
      expect(JSON_OPERATIONS.length).toBeGreaterThan(15);
      expect(limits.json).toBeLessThan(limits.article);
    });

    it.each(JSON_OPERATIONS)(
      '$key: a streamed body over the limit is 413, read no further than the limit',
      async (op) => {
        const limit = op.article ? limits.article : limits.json;
        const body = countingBody(limit * 3);
        const res = await api.request(pathOf(op.path), {
          method: op.method,
          token: owner,
          body: body.stream,
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status).toBe(413);
        expect((await errorOf(res)).code).toBe('payload_too_large');
        expect(body.pulled()).toBeLessThanOrEqual(limit + 4 * CHUNK);
      },
    );

    it.each(
      JSON_OPERATIONS.filter((op) =>
        ['post /v1/auth/register', 'post /v1/auth/login', 'post /v1/articles'].includes(op.key),
      ),
    )('$key: a Content-Length over the limit is 413 before a byte is read', async (op) => {
      const limit = op.article ? limits.article : limits.json;
      const body = countingBody(limit + 1);
      const res = await api.request(pathOf(op.path), {
        method: op.method,
        token: owner,
        body: body.stream,
        headers: { 'content-type': 'application/json', 'content-length': String(limit + 1) },
      });
      expect(res.status).toBe(413);
      expect((await errorOf(res)).code).toBe('payload_too_large');
      expect(body.pulled()).toBeLessThanOrEqual(CHUNK + 9);
    });

    it('lets an article body far above the small limit through, and answers 413 only above MAX_ARTICLE_BYTES', async () => {
      const big = 'é'.repeat(limits.json);
      const created = await api.request('/v1/articles', {
        method: 'POST',
        token: owner,
        // Plain text: Markdown has its own, smaller render bound (article-render-api.contract.ts).
        json: { title: 'Long read', body: big, format: 'plaintext' },
      });
      expect(created.status).toBe(201);
      const { article } = await created.json();
      expect(article.body).toBe(big);
      const edited = await api.request(`/v1/articles/${article.id}`, {
        method: 'PATCH',
        token: owner,
        json: { body: `${big}!` },
      });
      expect(edited.status).toBe(200);
      const site = await api.request('/v1/sites', {
        method: 'POST',
        token: owner,
        json: { name: 'Big', baseUrl: 'https://big.example', description: 'd'.repeat(limits.json) },
      });
      expect(site.status).toBe(413);
    });

    it('refuses a registration while registration is closed before parsing its body', async () => {
      const res = await api.request('/v1/auth/register', {
        method: 'POST',
        body: '{"email": not json at all',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(403);
      expect((await errorOf(res)).code).toBe('registration_closed');
    });
  });
}
