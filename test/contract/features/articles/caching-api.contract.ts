import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, registerOwner, upload } from '../../../support/api-flows.js';
import type { ApiHarness, SetupApi } from '../../../support/api-harness.js';
import { PNG_1x1 } from '../../../support/images.js';

const PUBLIC = 'public, max-age=0, s-maxage=60, stale-while-revalidate=60';
const STRONG_ETAG = /^"[A-Za-z0-9_-]{16,}"$/;

/** Validators, conditional requests and Cache-Control of every public read (docs/caching.md). */
export function runCachingApiContract(name: string, setup: SetupApi) {
  describe(`caching of public reads (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let articleId: string;
    let draftId: string;
    let siteId: string;
    let authorId: string;

    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'owner@example.com')).token;
      siteId = (
        await (
          await api.request('/v1/sites', {
            method: 'POST',
            token: owner,
            json: { name: 'Blog', baseUrl: 'https://b.example' },
          })
        ).json()
      ).site.id;
      authorId = (
        await (
          await api.request('/v1/authors', { method: 'POST', token: owner, json: { name: 'Ann', slug: 'ann' } })
        ).json()
      ).author.id;
      articleId = (await createArticle(api, owner, { title: 'Online', siteId, authorIds: [authorId] })).id;
      expect((await api.request(`/v1/articles/${articleId}/publish`, { method: 'POST', token: owner })).status).toBe(
        200,
      );
      draftId = (await createArticle(api, owner, { title: 'Draft', siteId })).id;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const publicReads = () => [
      '/v1/articles',
      '/v1/articles?limit=1',
      `/v1/articles/${articleId}`,
      `/v1/articles/${articleId}/seo`,
      `/v1/articles/${articleId}/images`,
      `/v1/articles/${articleId}/structured-data`,
      '/v1/sites',
      `/v1/sites/${siteId}`,
      `/v1/sites/${siteId}/sitemap.xml`,
      `/v1/sites/${siteId}/feed.xml`,
      '/v1/authors',
      `/v1/authors/${authorId}`,
      '/v1/tags',
    ];

    it('gives every public read a strong ETag and the public Cache-Control, and a 304 to a matching If-None-Match', async () => {
      for (const path of publicReads()) {
        const first = await api.request(path);
        expect(first.status, path).toBe(200);
        const etag = first.headers.get('etag');
        expect(etag, path).toMatch(STRONG_ETAG);
        expect(first.headers.get('cache-control'), path).toBe(PUBLIC);
        const body = await first.text();

        const again = await api.request(path);
        expect(again.headers.get('etag'), `${path}: the same answer, the same ETag`).toBe(etag);
        expect(await again.text()).toBe(body);

        for (const tag of [etag!, `W/${etag}`, `"other", ${etag}`, '*']) {
          const cond = await api.request(path, { headers: { 'if-none-match': tag } });
          expect(cond.status, `${path} If-None-Match: ${tag}`).toBe(304);
          expect(await cond.text()).toBe('');
          expect(cond.headers.get('etag')).toBe(etag);
          expect(cond.headers.get('cache-control')).toBe(PUBLIC);
          expect(cond.headers.get('vary')).toMatch(/Origin/);
        }
        const other = await api.request(path, { headers: { 'if-none-match': '"something-else"' } });
        expect(other.status, path).toBe(200);
        expect(await other.text()).toBe(body);
      }
    });

    it('answers a public read with the same headers whether the route makes it whole or through the context', async () => {
      // Without Authorization and Origin the route answers with one plain record of every header
      // (http/middleware/public-read.ts); an Origin the API does not allow changes nothing in the answer
      // but takes the context and the security layer. Where a cache answers the second request (an
      // article on Node with SQLite, on Workers), its hit must carry the same headers too.
      const headersOf = (res: Response) =>
        Object.fromEntries([...res.headers].filter(([name]) => name !== 'x-request-id' && name !== 'date'));
      const elsewhere = { origin: 'https://elsewhere.example' };
      for (const path of publicReads()) {
        const conditional: Record<string, string> = { 'if-none-match': (await api.request(path)).headers.get('etag')! };
        for (const extra of [{}, conditional]) {
          const through = await api.request(path, { headers: { ...elsewhere, ...extra } });
          const whole = await api.request(path, { headers: extra });
          expect(through.headers.get('access-control-allow-origin'), path).toBeNull();
          expect(whole.status, path).toBe(through.status);
          expect(headersOf(whole), path).toEqual(headersOf(through));
          expect(whole.headers.get('x-request-id'), path).toMatch(/^[0-9a-f-]{36}$/);
          expect(await whole.text()).toBe(await through.text());
        }
      }
    });

    it('changes the ETag when the answer changes, so an old copy is sent again in full', async () => {
      const path = `/v1/articles/${articleId}`;
      const before = (await api.request(path)).headers.get('etag')!;
      const list = (await api.request('/v1/articles')).headers.get('etag')!;
      const edit = await api.request(path, { method: 'PATCH', token: owner, json: { title: 'Renamed' } });
      expect(edit.status).toBe(200);
      const after = await api.request(path, { headers: { 'if-none-match': before } });
      expect(after.status).toBe(200);
      expect((await after.json()).article.title).toBe('Renamed');
      expect(after.headers.get('etag')).not.toBe(before);
      const listAfter = await api.request('/v1/articles', { headers: { 'if-none-match': list } });
      expect(listAfter.status).toBe(200);
      expect(listAfter.headers.get('etag')).not.toBe(list);
    });

    it('changes the single read and its ETag with every author, tag, image and tag rename it shows', async () => {
      // A plain article is read in one statement, images and tag names only when it has some (articles.service.ts).
      const id = (await createArticle(api, owner, { title: 'Plain' })).id;
      expect((await api.request(`/v1/articles/${id}/publish`, { method: 'POST', token: owner })).status).toBe(200);
      const path = `/v1/articles/${id}`;
      const seen = new Set<string>();
      const read = async () => {
        const res = await api.request(path);
        expect(res.status).toBe(200);
        const etag = res.headers.get('etag')!;
        expect(seen.has(etag), 'a new answer has a new ETag').toBe(false);
        seen.add(etag);
        return (await res.json()).article;
      };
      const patch = async (json: unknown) =>
        expect((await api.request(path, { method: 'PATCH', token: owner, json })).status).toBe(200);
      expect(await read()).toMatchObject({ authorIds: [], tags: [], images: [] });
      await patch({ authorIds: [authorId] });
      expect((await read()).authorIds).toEqual([authorId]);
      const tag = await api.request('/v1/tags', { method: 'POST', token: owner, json: { name: 'News', slug: 'news' } });
      expect(tag.status).toBe(201);
      const tagId = (await tag.json()).tag.id;
      await patch({ tagIds: [tagId] });
      expect((await read()).tags).toEqual([{ id: tagId, name: 'News', slug: 'news' }]);
      const renamed = await api.request(`/v1/tags/${tagId}`, {
        method: 'PATCH',
        token: owner,
        json: { name: 'Daily' },
      });
      expect(renamed.status).toBe(200);
      expect((await read()).tags).toEqual([{ id: tagId, name: 'Daily', slug: 'news' }]);
      expect((await upload(api, owner, id, PNG_1x1, 'dot.png', 'image/png')).status).toBe(201);
      expect((await read()).images).toHaveLength(1);
      await patch({ siteId });
      expect((await read()).siteId).toBe(siteId);
    });

    it('answers repeated conditional reads with 304 until a write, and in full with a new ETag right after any write', async () => {
      // A tag's name is shown in the article: renaming it changes the answer without touching the article's row.
      const tag = await api.request('/v1/tags', { method: 'POST', token: owner, json: { name: 'Old', slug: 'old' } });
      const tagId = (await tag.json()).tag.id;
      const id = (await createArticle(api, owner, { title: 'Kept', tagIds: [tagId] })).id;
      expect((await api.request(`/v1/articles/${id}/publish`, { method: 'POST', token: owner })).status).toBe(200);
      for (const path of [`/v1/articles/${id}`, '/v1/articles?limit=1']) {
        const conditional = (etag: string) => api.request(path, { headers: { 'if-none-match': etag } });
        let etag = (await api.request(path)).headers.get('etag')!;
        const unchanged = async () => {
          for (let i = 0; i < 3; i++) {
            const res = await conditional(etag);
            expect(res.status, `${path}: nothing changed`).toBe(304);
            expect(res.headers.get('etag')).toBe(etag);
            expect(res.headers.get('cache-control')).toBe(PUBLIC);
            expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
          }
        };
        const changed = async () => {
          const res = await conditional(etag);
          expect(res.status, `${path}: read again after the write`).toBe(200);
          const next = res.headers.get('etag')!;
          expect(next).not.toBe(etag);
          etag = next;
          return res.json();
        };
        await unchanged();
        // A write elsewhere: the same answer, so the same ETag and still a 304.
        expect(
          (await api.request(`/v1/articles/${draftId}`, { method: 'PATCH', token: owner, json: { title: 'Draft' } }))
            .status,
        ).toBe(200);
        await unchanged();
        const name = `Renamed for ${path}`;
        expect((await api.request(`/v1/tags/${tagId}`, { method: 'PATCH', token: owner, json: { name } })).status).toBe(
          200,
        );
        const body = await changed();
        expect(JSON.stringify(body)).toContain(name);
        await unchanged();
        const title = `Retitled for ${path}`;
        expect(
          (await api.request(`/v1/articles/${id}`, { method: 'PATCH', token: owner, json: { title } })).status,
        ).toBe(200);
        expect(JSON.stringify(await changed())).toContain(title);
        await unchanged();
      }
    });

    it('keeps answers that show offline articles private; answers every caller gets alike stay public', async () => {
      for (const path of ['/v1/articles', `/v1/articles/${draftId}`, `/v1/articles/${articleId}/seo`]) {
        const mine = await api.request(path, { token: owner });
        expect(mine.status, path).toBe(200);
        expect(mine.headers.get('cache-control'), path).toBe('private, no-store');
        // Still a validator (for an editor, the article's version): the admin may keep its own copy and ask again.
        const etag = mine.headers.get('etag');
        expect(etag, path).toMatch(/^"[^"]+"$/);
        const cond = await api.request(path, { token: owner, headers: { 'if-none-match': etag! } });
        expect(cond.status, path).toBe(304);
        expect(cond.headers.get('cache-control')).toBe('private, no-store');
      }
      // The owner sees the draft in the list, the public does not: the two answers differ.
      const [mine, theirs] = await Promise.all([
        api.request('/v1/articles', { token: owner }),
        api.request('/v1/articles'),
      ]);
      expect(mine.headers.get('etag')).not.toBe(theirs.headers.get('etag'));
      for (const path of ['/v1/sites', `/v1/authors/${authorId}`, `/v1/sites/${siteId}/feed.xml`]) {
        const res = await api.request(path, { token: owner });
        expect(res.headers.get('cache-control'), path).toBe(PUBLIC);
        expect(res.headers.get('etag')).toBe((await api.request(path)).headers.get('etag'));
      }
    });

    it('keeps errors and other routes out of it', async () => {
      const missing = await api.request(`/v1/articles/${draftId}`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('etag')).toBeNull();
      expect(missing.headers.get('cache-control')).toBeNull();
      const version = await api.request('/v1/system/version', { headers: { 'if-none-match': '*' } });
      expect(version.status).toBe(200);
      expect(version.headers.get('etag')).toBeNull();
    });
  });

  describe(`PUBLIC_CACHE_SECONDS and PUBLIC_STALE_SECONDS (${name})`, () => {
    it('set the lifetimes a shared cache may keep a public read', async () => {
      const other = await setup({ PUBLIC_CACHE_SECONDS: '300', PUBLIC_STALE_SECONDS: '3600' });
      try {
        expect((await other.request('/v1/articles')).headers.get('cache-control')).toBe(
          'public, max-age=0, s-maxage=300, stale-while-revalidate=3600',
        );
      } finally {
        await other.cleanup();
      }
    });
  });
}
