import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner, registerPending } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';

const UNKNOWN = '0190a000-0000-7000-8000-000000000000';

/** Sites and authors per docs/api.md: public reads, verified writes, validation, 404s, 409 while articles use them. */
export function runContentApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`sites and authors API (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'owner@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    async function createSite(json: Record<string, unknown> = {}) {
      const res = await api.request('/v1/sites', {
        method: 'POST',
        token: owner,
        json: { name: 'Blog', baseUrl: 'https://blog.example', ...json },
      });
      expect(res.status).toBe(201);
      return (await res.json()).site as { id: string; [k: string]: unknown };
    }

    async function createAuthor(json: Record<string, unknown> = {}) {
      const res = await api.request('/v1/authors', {
        method: 'POST',
        token: owner,
        json: { name: 'Jane', slug: `jane-${Math.random().toString(36).slice(2, 10)}`, ...json },
      });
      expect(res.status).toBe(201);
      return (await res.json()).author as { id: string; [k: string]: unknown };
    }

    it('creates, reads, lists, edits and deletes a site; reads are public', async () => {
      const res = await api.request('/v1/sites', {
        method: 'POST',
        token: owner,
        json: { name: '  My blog  ', baseUrl: 'https://blog.example/path', description: 'About things', evil: true },
      });
      expect(res.status).toBe(201);
      const { site } = await res.json();
      expect(Object.keys(site).sort()).toEqual([
        'baseUrl',
        'createdAt',
        'description',
        'id',
        'name',
        'previewUrl',
        'urlPattern',
      ]);
      expect(site).toMatchObject({
        name: 'My blog',
        baseUrl: 'https://blog.example/path',
        description: 'About things',
      });
      expect(new Date(site.createdAt).toISOString()).toBe(site.createdAt);

      const read = await api.request(`/v1/sites/${site.id}`);
      expect(read.status).toBe(200);
      expect((await read.json()).site).toEqual(site);
      expect((await api.request(`/v1/sites/${site.id.toUpperCase()}`)).status).toBe(200);

      const second = await createSite({ name: 'Second' });
      const list = await (await api.request('/v1/sites?limit=1')).json();
      expect(list.items.map((s: { id: string }) => s.id)).toEqual([second.id]);
      expect(list.nextCursor).toEqual(expect.any(String));
      const next = await (await api.request(`/v1/sites?limit=1&cursor=${list.nextCursor}`)).json();
      expect(next.items.map((s: { id: string }) => s.id)).toContain(site.id);

      const edited = await api.request(`/v1/sites/${site.id}`, {
        method: 'PATCH',
        token: owner,
        json: { description: null, baseUrl: 'http://new.example' },
      });
      expect(edited.status).toBe(200);
      expect((await edited.json()).site).toEqual({ ...site, description: null, baseUrl: 'http://new.example' });

      expect((await api.request(`/v1/sites/${site.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
      expect((await api.request(`/v1/sites/${site.id}`)).status).toBe(404);
      expect((await api.request(`/v1/sites/${site.id}`, { method: 'DELETE', token: owner })).status).toBe(404);
    });

    it('creates, reads, lists, edits and deletes an author; slugs are unique', async () => {
      const res = await api.request('/v1/authors', {
        method: 'POST',
        token: owner,
        json: {
          name: 'Ada Lovelace',
          slug: 'ada-lovelace',
          bio: 'First programmer',
          avatarUrl: '/static/uploadedImages/0190a000-0000-7000-8000-000000000001.png',
        },
      });
      expect(res.status).toBe(201);
      const { author } = await res.json();
      expect(Object.keys(author).sort()).toEqual(['avatarUrl', 'bio', 'createdAt', 'id', 'name', 'slug']);
      expect(author).toMatchObject({ name: 'Ada Lovelace', slug: 'ada-lovelace', bio: 'First programmer' });

      const read = await api.request(`/v1/authors/${author.id}`);
      expect(read.status).toBe(200);
      expect((await read.json()).author).toEqual(author);
      const list = await (await api.request('/v1/authors')).json();
      expect(list.items.map((a: { id: string }) => a.id)).toContain(author.id);

      const dup = await api.request('/v1/authors', {
        method: 'POST',
        token: owner,
        json: { name: 'Other', slug: 'ada-lovelace' },
      });
      expect(dup.status).toBe(409);
      expect((await errorOf(dup)).code).toBe('conflict');
      const other = await createAuthor({ slug: 'charles-babbage' });
      const clash = await api.request(`/v1/authors/${other.id}`, {
        method: 'PATCH',
        token: owner,
        json: { slug: 'ada-lovelace' },
      });
      expect(clash.status).toBe(409);

      const edited = await api.request(`/v1/authors/${author.id}`, {
        method: 'PATCH',
        token: owner,
        json: { avatarUrl: 'https://cdn.example/ada.jpg', bio: null },
      });
      expect(edited.status).toBe(200);
      expect((await edited.json()).author).toEqual({ ...author, avatarUrl: 'https://cdn.example/ada.jpg', bio: null });

      expect((await api.request(`/v1/authors/${author.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
      expect((await api.request(`/v1/authors/${author.id}`)).status).toBe(404);
    });

    it('answers anonymous writes with 401', async () => {
      const site = await createSite();
      const author = await createAuthor();
      const writes: Array<[string, string, unknown]> = [
        ['POST', '/v1/sites', { name: 'x', baseUrl: 'https://x.example' }],
        ['PATCH', `/v1/sites/${site.id}`, { name: 'x' }],
        ['DELETE', `/v1/sites/${site.id}`, undefined],
        ['POST', '/v1/authors', { name: 'x', slug: 'x' }],
        ['PATCH', `/v1/authors/${author.id}`, { name: 'x' }],
        ['DELETE', `/v1/authors/${author.id}`, undefined],
      ];
      for (const [method, path, json] of writes) {
        const res = await api.request(path, json === undefined ? { method } : { method, json });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect((await errorOf(res)).code).toBe('unauthorized');
      }
      expect((await api.request(`/v1/sites/${site.id}`)).status).toBe(200);
      expect((await api.request(`/v1/authors/${author.id}`)).status).toBe(200);
    });

    it('answers unknown and malformed ids with a uniform 404', async () => {
      for (const kind of ['sites', 'authors']) {
        for (const id of [UNKNOWN, 'not-a-uuid', '1%27%20or%201%3D1']) {
          for (const [method, json] of [
            ['GET', undefined],
            ['PATCH', { name: 'x' }],
            ['DELETE', undefined],
          ] as const) {
            const res = await api.request(
              `/v1/${kind}/${id}`,
              json === undefined ? { method, token: owner } : { method, token: owner, json },
            );
            expect(res.status, `${method} ${kind}/${id}`).toBe(404);
            expect((await errorOf(res)).code).toBe('not_found');
          }
        }
      }
    });

    it('validates sites', async () => {
      const bad: Array<[Record<string, unknown>, string]> = [
        [{ baseUrl: 'https://x.example' }, 'name'],
        [{ name: '   ', baseUrl: 'https://x.example' }, 'name'],
        [{ name: 'x'.repeat(201), baseUrl: 'https://x.example' }, 'name'],
        [{ name: 'tab\there', baseUrl: 'https://x.example' }, 'name'],
        [{ name: 'ok' }, 'baseUrl'],
        [{ name: 'ok', baseUrl: 'ftp://x.example' }, 'baseUrl'],
        [{ name: 'ok', baseUrl: 'javascript:alert(1)' }, 'baseUrl'],
        [{ name: 'ok', baseUrl: 'not a url' }, 'baseUrl'],
        [{ name: 'ok', baseUrl: 'https://x.example', description: 'd'.repeat(5001) }, 'description'],
        [{ name: 'ok', baseUrl: 'https://x.example', description: 42 }, 'description'],
        [{ name: 'ok', baseUrl: 'https://x.example', previewUrl: 'https://x.example/preview' }, 'previewUrl'],
        [{ name: 'ok', baseUrl: 'https://x.example', previewUrl: 'https://x.example/{token}/{token}' }, 'previewUrl'],
        [{ name: 'ok', baseUrl: 'https://x.example', previewUrl: 'javascript:{token}' }, 'previewUrl'],
      ];
      for (const [json, path] of bad) {
        const res = await api.request('/v1/sites', { method: 'POST', token: owner, json });
        expect(res.status, JSON.stringify(json)).toBe(400);
        const err = await errorOf(res);
        expect(err.code).toBe('invalid_request');
        expect(err.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
      }
      const long = await createSite({ name: 'x'.repeat(200), description: 'd'.repeat(5000) });
      expect(long.description).toBe('d'.repeat(5000));
      const patch = await api.request(`/v1/sites/${long.id}`, {
        method: 'PATCH',
        token: owner,
        json: { baseUrl: 'mailto:a@b.c' },
      });
      expect(patch.status).toBe(400);
    });

    it('validates authors', async () => {
      const bad: Array<[Record<string, unknown>, string]> = [
        [{ slug: 'ok' }, 'name'],
        [{ name: '', slug: 'ok' }, 'name'],
        [{ name: 'ok' }, 'slug'],
        [{ name: 'ok', slug: 'Upper' }, 'slug'],
        [{ name: 'ok', slug: 'double--hyphen' }, 'slug'],
        [{ name: 'ok', slug: '-lead' }, 'slug'],
        [{ name: 'ok', slug: 'a'.repeat(101) }, 'slug'],
        [{ name: 'ok', slug: 'ok', bio: 'b'.repeat(5001) }, 'bio'],
        [{ name: 'ok', slug: 'ok', avatarUrl: '/etc/passwd' }, 'avatarUrl'],
        [{ name: 'ok', slug: 'ok', avatarUrl: 'javascript:alert(1)' }, 'avatarUrl'],
        [{ name: 'ok', slug: 'ok', avatarUrl: '/static/uploadedImages/../../secret' }, 'avatarUrl'],
      ];
      for (const [json, path] of bad) {
        const res = await api.request('/v1/authors', { method: 'POST', token: owner, json });
        expect(res.status, JSON.stringify(json)).toBe(400);
        const err = await errorOf(res);
        expect(err.code).toBe('invalid_request');
        expect(err.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
      }
      const ok = await createAuthor({ slug: 'a'.repeat(100), avatarUrl: 'http://cdn.example/a.png' });
      expect(ok.slug).toBe('a'.repeat(100));
    });

    it('refuses to delete a site or author an article uses (409), and filters articles by site', async () => {
      const site = await createSite({ name: 'Used' });
      const otherSite = await createSite({ name: 'Other' });
      const author = await createAuthor();
      const article = await createArticle(api, owner, { title: 'Uses both', siteId: site.id, authorIds: [author.id] });
      const elsewhere = await createArticle(api, owner, { title: 'Elsewhere', siteId: otherSite.id });

      const siteRefusal = await api.request(`/v1/sites/${site.id}`, { method: 'DELETE', token: owner });
      expect(siteRefusal.status).toBe(409);
      const siteErr = await errorOf(siteRefusal);
      expect(siteErr.code).toBe('conflict');
      expect(siteErr.message).toMatch(/articles/);
      const authorRefusal = await api.request(`/v1/authors/${author.id}`, { method: 'DELETE', token: owner });
      expect(authorRefusal.status).toBe(409);
      expect((await errorOf(authorRefusal)).message).toMatch(/articles/);
      expect((await api.request(`/v1/sites/${site.id}`)).status).toBe(200);
      expect((await api.request(`/v1/authors/${author.id}`)).status).toBe(200);

      const filtered = await (await api.request(`/v1/articles?siteId=${site.id}`, { token: owner })).json();
      expect(filtered.items.map((a: { id: string }) => a.id)).toEqual([article.id]);
      const other = await (await api.request(`/v1/articles?siteId=${otherSite.id}`, { token: owner })).json();
      expect(other.items.map((a: { id: string }) => a.id)).toEqual([elsewhere.id]);

      // Once the article lets go, both can be deleted.
      const moved = await api.request(`/v1/articles/${article.id}`, {
        method: 'PATCH',
        token: owner,
        json: { siteId: null, authorIds: [] },
      });
      expect(moved.status).toBe(200);
      expect((await api.request(`/v1/sites/${site.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
      expect((await api.request(`/v1/authors/${author.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
    });

    // Last: on Workers a second harness shares (and empties) the one D1 database.
    it('answers writes by an unverified registrant with 403', async () => {
      const other = await setup();
      try {
        const pending = await registerPending(other, 'pending@example.com');
        for (const [path, json] of [
          ['/v1/sites', { name: 'x', baseUrl: 'https://x.example' }],
          ['/v1/authors', { name: 'x', slug: 'x' }],
        ] as const) {
          const res = await other.request(path, { method: 'POST', token: pending.token, json });
          expect(res.status, path).toBe(403);
          expect((await errorOf(res)).code).toBe('forbidden');
        }
        expect((await (await other.request('/v1/sites')).json()).items).toEqual([]);
      } finally {
        await other.cleanup();
      }
    });
  });
}
