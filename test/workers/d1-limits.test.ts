import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, registerOwner } from '../support/api-flows.js';
import type { ApiHarness } from '../support/api-harness.js';
import { workerHarness } from './support/worker-harness.js';

/**
 * D1 stores at most about 2 MB per row: a bigger article body, or one that
 * does not fit with the HTML rendered from it, is a clear 413 there, never a
 * 500 (and never stored without its HTML, which reads would render again).
 */
describe('D1 row size', () => {
  let api: ApiHarness;
  let owner: string;
  beforeAll(async () => {
    // The render bounds raised past these bodies: only the row limit is under test.
    api = await workerHarness({ MAX_MARKDOWN_BYTES: '4194304', MAX_RENDER_BYTES: '4194304' });
    owner = (await registerOwner(api, 'big@example.com')).token;
  });
  afterAll(async () => {
    await api?.cleanup();
  });

  it('answers an article body over the row limit with 413 and stores nothing', async () => {
    const body = 'x'.repeat(2_100_000);
    const res = await api.request('/v1/articles', { method: 'POST', token: owner, json: { title: 'Too big', body } });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('payload_too_large');
    const list = await (await api.request('/v1/articles', { token: owner })).json();
    expect(list.items).toEqual([]);
    const article = await createArticle(api, owner, { title: 'Fits', body: 'y'.repeat(900_000) });
    expect(article.html).toBe(`<p>${'y'.repeat(900_000)}</p>\n`);
    const edit = await api.request(`/v1/articles/${article.id}`, { method: 'PATCH', token: owner, json: { body } });
    expect(edit.status).toBe(413);
    // Fits alone, not with its HTML.
    const withHtml = await api.request(`/v1/articles/${article.id}`, {
      method: 'PATCH',
      token: owner,
      json: { body: 'z'.repeat(1_200_000) },
    });
    expect(withHtml.status).toBe(413);
    expect((await withHtml.json()).error.message).toContain('the HTML rendered from it');
    const kept = (await (await api.request(`/v1/articles/${article.id}`, { token: owner })).json()).article;
    expect(kept).toMatchObject({ body: 'y'.repeat(900_000), version: article.version });
  });
});
