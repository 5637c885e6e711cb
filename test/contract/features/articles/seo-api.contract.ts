import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';

const EMPTY = { metaTitle: null, metaDescription: null, canonicalUrl: null, ogImage: null, noindex: false };

/** SEO data per article (docs/api.md#articles): validated, replaced whole, public with the article. */
export function runSeoApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`article SEO (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    const put = (id: string, json: unknown) =>
      api.request(`/v1/articles/${id}/seo`, { method: 'PUT', token: owner, json });

    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'seo-owner@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('is empty by default, set on create, replaced whole by PUT, and public with an online article', async () => {
      const plain = await createArticle(api, owner);
      expect(plain.seo).toEqual(EMPTY);
      const seo = {
        metaTitle: '  Best title  ',
        metaDescription: 'About it',
        canonicalUrl: 'https://example.com/a',
        ogImage: '/static/uploadedImages/0190a000-0000-7000-8000-000000000001.jpg',
        noindex: true,
      };
      const article = await createArticle(api, owner, { seo });
      expect(article.seo).toEqual({ ...seo, metaTitle: 'Best title' });

      const replaced = await put(article.id, {
        metaTitle: 'Only this',
        ogImage: 'https://cdn.example/og.png',
        unknown: 'ignored',
      });
      expect(replaced.status).toBe(200);
      const expected = { ...EMPTY, metaTitle: 'Only this', ogImage: 'https://cdn.example/og.png' };
      expect((await replaced.json()).seo).toEqual(expected);
      // Offline: hidden from the public like the article itself.
      expect((await api.request(`/v1/articles/${article.id}/seo`)).status).toBe(404);
      expect((await (await api.request(`/v1/articles/${article.id}/seo`, { token: owner })).json()).seo).toEqual(
        expected,
      );
      expect((await api.request(`/v1/articles/${article.id}/publish`, { method: 'POST', token: owner })).status).toBe(
        200,
      );
      expect((await (await api.request(`/v1/articles/${article.id}/seo`)).json()).seo).toEqual(expected);
      expect((await (await api.request(`/v1/articles/${article.id}`)).json()).article.seo).toEqual(expected);
      const list = await (await api.request('/v1/articles')).json();
      expect(list.items.find((a: { id: string }) => a.id === article.id).seo).toEqual(expected);
      // An empty string clears a field.
      expect((await (await put(article.id, { metaTitle: '' })).json()).seo).toEqual(EMPTY);
    });

    it('travels in PATCH with the other fields, in one write; a bad record writes nothing', async () => {
      const article = await createArticle(api, owner, { title: 'Before', seo: { metaDescription: 'Old' } });
      const res = await api.request(`/v1/articles/${article.id}`, {
        method: 'PATCH',
        token: owner,
        json: { title: 'After', seo: { metaTitle: ' Meta ', noindex: true } },
      });
      expect(res.status).toBe(200);
      const { article: now } = await res.json();
      // Whole, as PUT …/seo: the description it left out is cleared.
      expect(now).toMatchObject({
        title: 'After',
        seo: { ...EMPTY, metaTitle: 'Meta', noindex: true },
        version: (article.version as number) + 1,
      });
      const bad = await api.request(`/v1/articles/${article.id}`, {
        method: 'PATCH',
        token: owner,
        json: { title: 'Not this', seo: { canonicalUrl: 'javascript:alert(1)' } },
      });
      expect(bad.status).toBe(400);
      expect(JSON.stringify((await errorOf(bad)).issues)).toContain('canonicalUrl');
      const stored = (await (await api.request(`/v1/articles/${article.id}`, { token: owner })).json()).article;
      expect(stored).toMatchObject({ title: 'After', seo: now.seo, version: now.version });
    });

    it('refuses what would be unsafe or wrong in a page head', async () => {
      const article = await createArticle(api, owner);
      for (const json of [
        { canonicalUrl: 'javascript:alert(1)' },
        { canonicalUrl: '/relative/path' },
        { ogImage: 'data:image/png;base64,AAAA' },
        { ogImage: '/static/uploadedImages/../../etc/passwd' },
        { metaTitle: 'line\nbreak' },
        { metaTitle: 'x'.repeat(201) },
        { metaDescription: 'y'.repeat(501) },
        { noindex: 'yes' },
        { metaTitle: 42 },
        'not an object',
      ]) {
        const res = await put(article.id, json);
        expect(res.status, JSON.stringify(json)).toBe(400);
        expect((await errorOf(res)).code).toBe('invalid_request');
      }
      const bad = await api.request('/v1/articles', {
        method: 'POST',
        token: owner,
        json: { title: 'x', seo: { canonicalUrl: 'ftp://x' } },
      });
      expect(bad.status).toBe(400);
    });

    it('answers 401 without a session and 404 for an unknown article', async () => {
      const article = await createArticle(api, owner);
      expect((await api.request(`/v1/articles/${article.id}/seo`, { method: 'PUT', json: {} })).status).toBe(401);
      const unknown = '0190a000-0000-7000-8000-000000000000';
      expect((await put(unknown, {})).status).toBe(404);
      expect((await api.request(`/v1/articles/${unknown}/seo`, { token: owner })).status).toBe(404);
    });
  });
}
