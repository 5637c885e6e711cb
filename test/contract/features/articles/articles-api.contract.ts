import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner, registerPending } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';

const UNKNOWN = '0190a000-0000-7000-8000-000000000000';

/** Articles per docs/api.md: visibility, the title rule, paging, state changes, uniform 404s. */
export function runArticlesApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`articles API (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'owner@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('creates offline articles with defaults, hidden from the public until published', async () => {
      const res = await api.request('/v1/articles', {
        method: 'POST',
        token: owner,
        json: { title: '  Hello world  ', evil: 1 },
      });
      expect(res.status).toBe(201);
      const { article } = await res.json();
      expect(article).toMatchObject({
        title: 'Hello world',
        body: '',
        format: 'markdown',
        status: 'offline',
        siteId: null,
        authorIds: [],
        publishedAt: null,
        images: [],
      });
      expect(article).not.toHaveProperty('evil');
      expect(new Date(article.createdAt).toISOString()).toBe(article.createdAt);

      expect((await api.request(`/v1/articles/${article.id}`)).status).toBe(404);
      expect((await api.request(`/v1/articles/${article.id}`, { token: owner })).status).toBe(200);
      const publicList = await (await api.request('/v1/articles')).json();
      expect(publicList.items.map((a: { id: string }) => a.id)).not.toContain(article.id);

      const published = await api.request(`/v1/articles/${article.id}/publish`, { method: 'POST', token: owner });
      expect(published.status).toBe(200);
      const online = (await published.json()).article;
      expect(online.status).toBe('online');
      expect(online.publishedAt).not.toBeNull();
      const read = await api.request(`/v1/articles/${article.id}`);
      expect(read.status).toBe(200);
      expect((await read.json()).article.title).toBe('Hello world');

      const unpublished = await api.request(`/v1/articles/${article.id}/unpublish`, { method: 'POST', token: owner });
      expect((await unpublished.json()).article).toMatchObject({ status: 'offline', publishedAt: online.publishedAt });
      expect((await api.request(`/v1/articles/${article.id}`)).status).toBe(404);
    });

    it('ignores __proto__ and constructor in bodies', async () => {
      const raw =
        '{"title":"Proto","__proto__":{"status":"online","polluted":true},"constructor":{"prototype":{"polluted":true}}}';
      const res = await api.request('/v1/articles', {
        method: 'POST',
        token: owner,
        body: raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(201);
      const { article } = await res.json();
      expect(article.status).toBe('offline');
      expect(article).not.toHaveProperty('polluted');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('applies one title rule and accepts long bodies', async () => {
      for (const title of ['', '   ', 'x'.repeat(201), 'bad\u0000title', 'tab\there', 'half \uD83D pair', 42, null]) {
        const res = await api.request('/v1/articles', { method: 'POST', token: owner, json: { title } });
        expect(res.status, JSON.stringify(title)).toBe(400);
        const err = await errorOf(res);
        expect(err.code).toBe('invalid_request');
        expect(err.issues).toEqual([expect.objectContaining({ path: 'title' })]);
      }
      expect(
        (await api.request('/v1/articles', { method: 'POST', token: owner, json: { title: 'x'.repeat(200) } })).status,
      ).toBe(201);
      expect(
        (await api.request('/v1/articles', { method: 'POST', token: owner, json: { title: 'ok', format: 'docx' } }))
          .status,
      ).toBe(400);

      // Long, within MAX_RENDER_BYTES (512 KiB by default; article-render-api.contract.ts has the bounds).
      const body = `# Big\n${'Ünïcødé 😀 \u202Eevil\u202C %_\'" '.repeat(12_000)}`;
      const article = await createArticle(api, owner, { title: 'Long', body, format: 'html' });
      const read = await (await api.request(`/v1/articles/${article.id}`, { token: owner })).json();
      expect(read.article.body).toBe(body);
      expect(read.article.format).toBe('html');

      const edited = await api.request(`/v1/articles/${article.id}`, {
        method: 'PATCH',
        token: owner,
        json: { body: 'short', format: 'plaintext' },
      });
      expect(edited.status).toBe(200);
      expect((await edited.json()).article).toMatchObject({ title: 'Long', body: 'short', format: 'plaintext' });
      const badEdit = await api.request(`/v1/articles/${article.id}`, {
        method: 'PATCH',
        token: owner,
        json: { title: '' },
      });
      expect(badEdit.status).toBe(400);
      for (const bad of ['a\u0000b', 'lone \uDE00 half']) {
        const res = await api.request(`/v1/articles/${article.id}`, {
          method: 'PATCH',
          token: owner,
          json: { body: bad },
        });
        expect(res.status).toBe(400);
      }
    });

    it('answers unknown, malformed and hidden ids with the same 404', async () => {
      const hidden = await createArticle(api, owner);
      const bodies: unknown[] = [];
      for (const [method, path] of [
        ['GET', `/v1/articles/${UNKNOWN}`],
        ['GET', `/v1/articles/not-a-uuid`],
        ['GET', `/v1/articles/${hidden.id}`],
        ['PATCH', `/v1/articles/${UNKNOWN}`],
        ['POST', `/v1/articles/${UNKNOWN}/publish`],
        ['POST', `/v1/articles/${UNKNOWN}/unpublish`],
        ['DELETE', `/v1/articles/${UNKNOWN}`],
        ['GET', `/v1/articles/${UNKNOWN}/images`],
      ] as const) {
        const token = path.includes(hidden.id) ? undefined : owner;
        const res = await api.request(path, { method, token, json: method === 'PATCH' ? { title: 'x' } : undefined });
        expect(res.status, `${method} ${path}`).toBe(404);
        bodies.push(await res.json());
      }
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
      expect(bodies[0]).toEqual({ error: { code: 'not_found', message: 'Not found' } });
    });

    it('requires a session to change anything', async () => {
      const article = await createArticle(api, owner);
      for (const [method, path] of [
        ['POST', '/v1/articles'],
        ['PATCH', `/v1/articles/${article.id}`],
        ['POST', `/v1/articles/${article.id}/publish`],
        ['DELETE', `/v1/articles/${article.id}`],
      ] as const) {
        const res = await api.request(path, { method, json: { title: 'x' } });
        expect(res.status, `${method} ${path}`).toBe(401);
      }
    });

    it('shows every change to anonymous readers on the very next read', async () => {
      const article = await createArticle(api, owner, { title: 'Fresh' });
      await api.request(`/v1/articles/${article.id}/publish`, { method: 'POST', token: owner });
      const ids = async () =>
        (await (await api.request('/v1/articles?limit=100')).json()).items.map((a: { id: string }) => a.id);
      expect((await (await api.request(`/v1/articles/${article.id}`)).json()).article.title).toBe('Fresh');
      expect(await ids()).toContain(article.id);
      await api.request(`/v1/articles/${article.id}`, { method: 'PATCH', token: owner, json: { title: 'Edited' } });
      expect((await (await api.request(`/v1/articles/${article.id}`)).json()).article.title).toBe('Edited');
      const other = await createArticle(api, owner, { title: 'Another' });
      await api.request(`/v1/articles/${other.id}/publish`, { method: 'POST', token: owner });
      expect(await ids()).toContain(other.id);
      await api.request(`/v1/articles/${article.id}/unpublish`, { method: 'POST', token: owner });
      expect((await api.request(`/v1/articles/${article.id}`)).status).toBe(404);
      expect(await ids()).not.toContain(article.id);
    });

    it('deletes an article for good', async () => {
      const article = await createArticle(api, owner);
      expect((await api.request(`/v1/articles/${article.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
      expect((await api.request(`/v1/articles/${article.id}`, { token: owner })).status).toBe(404);
      expect((await api.request(`/v1/articles/${article.id}`, { method: 'DELETE', token: owner })).status).toBe(404);
    });
  });

  describe(`article lists (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    const online: string[] = [];
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'lists@example.com')).token;
      for (let i = 0; i < 7; i++) {
        const a = await createArticle(api, owner, { title: `Article ${i}` });
        if (i % 2 === 0) {
          await api.request(`/v1/articles/${a.id}/publish`, { method: 'POST', token: owner });
          online.push(a.id);
        }
      }
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    async function walk(query: string, token?: string): Promise<string[]> {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await api.request(`/v1/articles?${query}${cursor ? `&cursor=${cursor}` : ''}`, { token });
        expect(res.status).toBe(200);
        const page = await res.json();
        expect(page.items.length).toBeLessThanOrEqual(2);
        ids.push(...page.items.map((a: { id: string }) => a.id));
        cursor = page.nextCursor;
      } while (cursor);
      return ids;
    }

    it('pages newest first with opaque cursors; the public sees online articles only', async () => {
      expect(await walk('limit=2')).toEqual([...online].reverse());
      const all = await walk('limit=2', owner);
      expect(all).toHaveLength(7);
      expect(all).toEqual([...all].sort().reverse());
      expect(await walk('limit=2&status=offline', owner)).toHaveLength(3);
      // The public cannot ask for offline articles.
      expect(await walk('limit=2&status=offline')).toEqual([...online].reverse());
      const page = await (await api.request('/v1/articles', { token: owner })).json();
      expect(page).toEqual({ items: expect.any(Array), nextCursor: null, total: 7 });
      expect(page.items).toHaveLength(7);
    });

    it('refuses malformed paging with 400, never a whole table', async () => {
      for (const q of [
        'limit=0',
        'limit=-1',
        'limit=101',
        'limit=1abc',
        'limit=1e309',
        'limit=NaN',
        'limit=2&limit=3',
        'cursor=%00',
        'cursor=AAAA',
        `cursor=${'a'.repeat(500)}`,
        'status=deleted',
        'siteId=nope',
      ]) {
        const res = await api.request(`/v1/articles?${q}`, { token: owner });
        expect(res.status, q).toBe(400);
        expect((await errorOf(res)).code).toBe('invalid_request');
      }
    });

    it('an unverified registrant may write but not read offline articles', async () => {
      const other = await setup();
      try {
        const pending = await registerPending(other, 'pending@example.com');
        const article = await createArticle(other, pending.token, { title: 'Draft by a registrant' });
        expect((await other.request(`/v1/articles/${article.id}`, { token: pending.token })).status).toBe(404);
        const list = await (await other.request('/v1/articles?status=offline', { token: pending.token })).json();
        expect(list.items).toEqual([]);
      } finally {
        await other.cleanup();
      }
    });
  });
}
