import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner } from '../../../support/api-flows.js';
import { type ApiHarness, PUBLIC_URL, type SetupApi } from '../../../support/api-harness.js';

const UNKNOWN = '0190a000-0000-7000-8000-000000000000';
const DAY = 24 * 3600 * 1000;

/** Preview links per docs/api.md#previews. */
export function runPreviewsApiContract(name: string, setup: SetupApi) {
  describe(`previews API (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'owner@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    async function link(articleId: string, json: unknown = {}) {
      const res = await api.request(`/v1/articles/${articleId}/preview`, { method: 'POST', token: owner, json });
      expect(res.status).toBe(201);
      return (await res.json()) as { url: string; expiresAt: string };
    }
    /** The path of a preview URL, for the in-process harness. */
    const pathOf = (url: string) => url.slice(PUBLIC_URL.length);

    it('makes a link that shows an offline article to anyone, as a read answers it, never cached or indexed', async () => {
      const article = await createArticle(api, owner, { title: 'Draft', body: '# Not yet' });
      const before = api.clock.now().getTime();
      const res = await api.request(`/v1/articles/${article.id}/preview`, { method: 'POST', token: owner, json: {} });
      expect(res.status).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const preview = await res.json();
      expect(Object.keys(preview).sort()).toEqual(['expiresAt', 'url']);
      expect(preview.url).toMatch(new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/v1/preview/[A-Za-z0-9_-]{43}$`));
      const lifetime = Date.parse(preview.expiresAt) - before;
      expect(lifetime).toBeGreaterThanOrEqual(7 * DAY - 1000);
      expect(lifetime).toBeLessThanOrEqual(7 * DAY + 5000);

      expect((await api.request(`/v1/articles/${article.id}`)).status).toBe(404);
      const shown = await api.request(pathOf(preview.url));
      expect(shown.status).toBe(200);
      expect(shown.headers.get('cache-control')).toBe('no-store');
      expect(shown.headers.get('x-robots-tag')).toBe('noindex');
      expect(shown.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      const owned = await (await api.request(`/v1/articles/${article.id}`, { token: owner })).json();
      expect(await shown.json()).toEqual(owned);
      // Still the article as it now stands.
      await api.request(`/v1/articles/${article.id}`, { method: 'PATCH', token: owner, json: { title: 'Draft 2' } });
      expect((await (await api.request(pathOf(preview.url))).json()).article.title).toBe('Draft 2');
    });

    it('opens as a page in a browser, showing the pending draft, escaped, under the CSP; JSON otherwise', async () => {
      const article = await createArticle(api, owner, {
        title: '<script>alert(1)</script> & "Q"',
        body: '## Heading\n\n<img src=x onerror=alert(1)>',
      });
      const { url } = await link(article.id);
      const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
      const page = async () => {
        const res = await api.request(pathOf(url), { headers: { accept: browser } });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/i);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.headers.get('vary')).toMatch(/accept/i);
        expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
        return res.text();
      };
      const live = await page();
      expect(live).toContain('<meta name="robots" content="noindex">');
      expect(live).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Q&quot;</title>');
      expect(live).toContain('Heading</h2>');
      // Raw HTML in Markdown is shown as text; nothing runs.
      expect(live).not.toMatch(/<script|<img[^>]*onerror/i);
      expect(live).toContain('&lt;img src=x onerror=alert(1)&gt;');
      const draft = await api.request(`/v1/articles/${article.id}/draft`, {
        method: 'PUT',
        token: owner,
        json: { title: 'Draft title', body: 'Draft **text**' },
      });
      expect(draft.status).toBe(200);
      const shown = await page();
      expect(shown).toContain('<h1>Draft title</h1>');
      expect(shown).toContain('<strong>text</strong>');
      for (const accept of [undefined, '*/*', 'application/json', 'text/html;q=0.5, application/json']) {
        const res = await api.request(pathOf(url), accept ? { headers: { accept } } : {});
        expect(res.headers.get('content-type'), accept).toMatch(/^application\/json/);
        expect((await res.json()).article.title).toBe(article.title);
      }
    });

    it("links to the site's own preview page when the site has a previewUrl", async () => {
      const res = await api.request('/v1/sites', {
        method: 'POST',
        token: owner,
        json: { name: 'Blog', baseUrl: 'https://blog.example', previewUrl: 'https://blog.example/preview?t={token}' },
      });
      expect(res.status).toBe(201);
      const { site } = await res.json();
      expect(site.previewUrl).toBe('https://blog.example/preview?t={token}');
      const article = await createArticle(api, owner, { title: 'On the blog', siteId: site.id });
      const { url } = await link(article.id);
      const token = /^https:\/\/blog\.example\/preview\?t=([A-Za-z0-9_-]{43})$/.exec(url)?.[1];
      expect(token, url).toBeDefined();
      const read = await api.request(`/v1/preview/${token}`);
      expect((await read.json()).article.id).toBe(article.id);
    });

    it('expires, is revoked with every other link of its article, and goes with the article', async () => {
      const a = await createArticle(api, owner);
      const b = await createArticle(api, owner);
      const short = await link(a.id, { expiresInSeconds: 60 });
      const a2 = await link(a.id);
      const b1 = await link(b.id);
      expect((await api.request(pathOf(short.url))).status).toBe(200);
      api.clock.advance(61_000);
      expect((await api.request(pathOf(short.url))).status).toBe(404);
      expect((await api.request(pathOf(a2.url))).status).toBe(200);

      expect((await api.request(`/v1/articles/${a.id}/preview`, { method: 'DELETE', token: owner })).status).toBe(204);
      expect((await api.request(pathOf(a2.url))).status).toBe(404);
      expect((await api.request(pathOf(b1.url))).status).toBe(200);
      expect((await api.request(`/v1/articles/${UNKNOWN}/preview`, { method: 'DELETE', token: owner })).status).toBe(
        404,
      );

      await api.request(`/v1/articles/${b.id}`, { method: 'DELETE', token: owner });
      expect((await api.request(pathOf(b1.url))).status).toBe(404);
    });

    it('finds nothing for a wrong or malformed token', async () => {
      const a = await createArticle(api, owner);
      const { url } = await link(a.id);
      const token = url.slice(url.lastIndexOf('/') + 1);
      const other = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      for (const bad of [other, token.slice(1), `${token}x`, 'abc', '%2e%2e', token.toUpperCase()]) {
        const res = await api.request(`/v1/preview/${bad}`);
        expect(res.status, bad).toBe(404);
        expect((await errorOf(res)).code).toBe('not_found');
      }
    });

    it('bounds the lifetime and refuses unknown articles and callers who may not read offline articles', async () => {
      const a = await createArticle(api, owner);
      for (const expiresInSeconds of [59, 30 * 24 * 3600 + 1, 1.5, '3600', -1]) {
        const res = await api.request(`/v1/articles/${a.id}/preview`, {
          method: 'POST',
          token: owner,
          json: { expiresInSeconds },
        });
        expect(res.status, String(expiresInSeconds)).toBe(400);
        expect((await errorOf(res)).issues?.[0]).toMatchObject({ path: 'expiresInSeconds' });
      }
      const month = await link(a.id, { expiresInSeconds: 30 * 24 * 3600 });
      expect(Date.parse(month.expiresAt) - api.clock.now().getTime()).toBeGreaterThan(29 * DAY);
      expect(
        (await api.request(`/v1/articles/${UNKNOWN}/preview`, { method: 'POST', token: owner, json: {} })).status,
      ).toBe(404);
      expect((await api.request(`/v1/articles/${a.id}/preview`, { method: 'POST', json: {} })).status).toBe(401);
      const key = await api.request('/v1/api-keys', {
        method: 'POST',
        token: owner,
        json: { name: 'writer', scopes: ['content:write', 'media:write'] },
      });
      const writer = (await key.json()).secret as string;
      expect(
        (await api.request(`/v1/articles/${a.id}/preview`, { method: 'POST', token: writer, json: {} })).status,
      ).toBe(403);
      expect((await api.request(`/v1/articles/${a.id}/preview`, { method: 'DELETE', token: writer })).status).toBe(403);
    });
  });
}
