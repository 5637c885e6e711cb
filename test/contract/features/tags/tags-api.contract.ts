import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner, registerPending } from '../../../support/api-flows.js';
import type { ApiHarness, ApiTarget, SetupApi } from '../../../support/api-harness.js';
import { subscribe, verified } from '../../../support/webhook-flows.js';

const UNKNOWN = '0190a000-0000-7000-8000-000000000000';

type Tag = { id: string; name: string; slug: string; createdAt: string };

/** Tags per docs/api.md#tags, and the articles that carry them (`tagIds` → `tags`, `?tag=`). */
export function runTagsApiContract(name: string, setup: SetupApi, target: ApiTarget) {
  describe(`tags API (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    beforeAll(async () => {
      // The webhook receiver listens on 127.0.0.1, which only this setting lets through.
      api = await setup({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
      owner = (await registerOwner(api, 'owner@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    async function createTag(json: Record<string, unknown>): Promise<Tag> {
      const res = await api.request('/v1/tags', { method: 'POST', token: owner, json });
      expect(res.status, JSON.stringify(json)).toBe(201);
      return (await res.json()).tag;
    }
    const ref = ({ id, name, slug }: Tag) => ({ id, name, slug });
    const patch = (path: string, json: unknown) => api.request(path, { method: 'PATCH', token: owner, json });

    it('creates (slug from the name when left out), reads, lists, renames, re-slugs and deletes a tag; reads are public', async () => {
      const res = await api.request('/v1/tags', {
        method: 'POST',
        token: owner,
        json: { name: '  Café Society: Ünïcode & más!  ', evil: true },
      });
      expect(res.status).toBe(201);
      const { tag } = await res.json();
      expect(Object.keys(tag).sort()).toEqual(['createdAt', 'id', 'name', 'slug']);
      expect(tag).toMatchObject({ name: 'Café Society: Ünïcode & más!', slug: 'cafe-society-unicode-mas' });
      expect(new Date(tag.createdAt).toISOString()).toBe(tag.createdAt);

      const read = await api.request(`/v1/tags/${tag.id}`);
      expect(read.status).toBe(200);
      expect((await read.json()).tag).toEqual(tag);
      expect((await api.request(`/v1/tags/${tag.id.toUpperCase()}`)).status).toBe(200);

      const second = await createTag({ name: 'Second', slug: 'second-one' });
      expect(second.slug).toBe('second-one');
      const list = await (await api.request('/v1/tags?limit=1')).json();
      expect(list.items).toEqual([second]);
      expect(list.nextCursor).toEqual(expect.any(String));
      const next = await (await api.request(`/v1/tags?limit=1&cursor=${list.nextCursor}`)).json();
      expect(next.items).toEqual([tag]);

      // Renaming keeps the slug; the slug changes only when given.
      const renamed = await patch(`/v1/tags/${tag.id}`, { name: 'Café' });
      expect(renamed.status).toBe(200);
      expect((await renamed.json()).tag).toEqual({ ...tag, name: 'Café' });
      const reslugged = await patch(`/v1/tags/${tag.id}`, { slug: 'cafe' });
      expect((await reslugged.json()).tag).toEqual({ ...tag, name: 'Café', slug: 'cafe' });
      expect((await (await patch(`/v1/tags/${tag.id}`, {})).json()).tag).toEqual({
        ...tag,
        name: 'Café',
        slug: 'cafe',
      });

      expect((await api.request(`/v1/tags/${tag.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
      expect((await api.request(`/v1/tags/${tag.id}`)).status).toBe(404);
      expect((await api.request(`/v1/tags/${tag.id}`, { method: 'DELETE', token: owner })).status).toBe(404);
    });

    it('reads a tag and an author by slug, publicly; unknown and impossible slugs are a 404', async () => {
      const tag = await createTag({ name: 'By slug', slug: 'by-slug' });
      const read = await api.request('/v1/tags/slug/by-slug');
      expect(read.status).toBe(200);
      expect((await read.json()).tag).toEqual(tag);
      const made = await api.request('/v1/authors', {
        method: 'POST',
        token: owner,
        json: { name: 'Grace Hopper', slug: 'grace-hopper' },
      });
      expect(made.status).toBe(201);
      const { author } = await made.json();
      const byline = await api.request('/v1/authors/slug/grace-hopper');
      expect(byline.status).toBe(200);
      expect((await byline.json()).author).toEqual(author);
      for (const path of [
        '/v1/tags/slug/no-such',
        '/v1/tags/slug/By-Slug',
        '/v1/authors/slug/x--y',
        '/v1/authors/slug/nobody',
      ]) {
        const res = await api.request(path);
        expect(res.status, path).toBe(404);
        expect((await res.json()).error.code).toBe('not_found');
      }
    });

    it('keeps slugs unique (409 conflict naming the slug), made or given', async () => {
      await createTag({ name: 'Unique one', slug: 'unique' });
      for (const json of [{ name: 'Unique' }, { name: 'Other', slug: 'unique' }]) {
        const res = await api.request('/v1/tags', { method: 'POST', token: owner, json });
        expect(res.status, JSON.stringify(json)).toBe(409);
        const err = await errorOf(res);
        expect(err.code).toBe('conflict');
        expect(err.issues).toEqual([expect.objectContaining({ path: 'slug' })]);
      }
      const other = await createTag({ name: 'Not unique' });
      const clash = await patch(`/v1/tags/${other.id}`, { slug: 'unique' });
      expect(clash.status).toBe(409);
      expect((await api.request(`/v1/tags/${other.id}`)).status).toBe(200);
      expect((await (await api.request(`/v1/tags/${other.id}`)).json()).tag.slug).toBe('not-unique');
    });

    it('validates names and slugs', async () => {
      const bad: Array<[Record<string, unknown>, string]> = [
        [{}, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(201) }, 'name'],
        [{ name: 'tab\there' }, 'name'],
        [{ name: 42 }, 'name'],
        [{ name: 'ok', slug: 'Upper' }, 'slug'],
        [{ name: 'ok', slug: 'double--hyphen' }, 'slug'],
        [{ name: 'ok', slug: '-lead' }, 'slug'],
        [{ name: 'ok', slug: '' }, 'slug'],
        [{ name: 'ok', slug: 'a'.repeat(101) }, 'slug'],
        [{ name: 'ok', slug: 'snow☃' }, 'slug'],
        // Nothing in the name to make a slug from: the caller is asked for one.
        [{ name: '日本語 🚀' }, 'slug'],
      ];
      for (const [json, path] of bad) {
        const res = await api.request('/v1/tags', { method: 'POST', token: owner, json });
        expect(res.status, JSON.stringify(json)).toBe(400);
        const err = await errorOf(res);
        expect(err.code).toBe('invalid_request');
        expect(err.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
      }
      expect((await createTag({ name: '日本語', slug: 'nihongo' })).name).toBe('日本語');
      expect((await createTag({ name: 'y'.repeat(200) })).slug).toBe('y'.repeat(100));
      const tag = await createTag({ name: 'Valid' });
      expect((await patch(`/v1/tags/${tag.id}`, { slug: 'Not Valid' })).status).toBe(400);
      expect((await patch(`/v1/tags/${tag.id}`, { name: '' })).status).toBe(400);
    });

    it('answers anonymous writes with 401 and unknown or malformed ids with a uniform 404', async () => {
      const tag = await createTag({ name: 'Kept' });
      for (const [method, path, json] of [
        ['POST', '/v1/tags', { name: 'x' }],
        ['PATCH', `/v1/tags/${tag.id}`, { name: 'x' }],
        ['DELETE', `/v1/tags/${tag.id}`, undefined],
      ] as const) {
        const res = await api.request(path, json === undefined ? { method } : { method, json });
        expect(res.status, `${method} ${path}`).toBe(401);
      }
      expect((await (await api.request(`/v1/tags/${tag.id}`)).json()).tag).toEqual(tag);
      for (const id of [UNKNOWN, 'not-a-uuid', '1%27%20or%201%3D1']) {
        for (const [method, json] of [
          ['GET', undefined],
          ['PATCH', { name: 'x' }],
          ['DELETE', undefined],
        ] as const) {
          const res = await api.request(
            `/v1/tags/${id}`,
            json === undefined ? { method, token: owner } : { method, token: owner, json },
          );
          expect(res.status, `${method} ${id}`).toBe(404);
          expect((await errorOf(res)).code).toBe('not_found');
        }
      }
    });

    it('gives articles their tags in order, in the single read and in lists; unknown tags are a 400 naming them', async () => {
      const [red, green, blue] = [
        await createTag({ name: 'Red' }),
        await createTag({ name: 'Green' }),
        await createTag({ name: 'Blue' }),
      ];
      const article = await createArticle(api, owner, { title: 'Colours', tagIds: [blue.id, red.id] });
      expect(article.tags).toEqual([ref(blue), ref(red)]);
      const read = await (await api.request(`/v1/articles/${article.id}`, { token: owner })).json();
      expect(read.article.tags).toEqual([ref(blue), ref(red)]);

      const reordered = await patch(`/v1/articles/${article.id}`, { tagIds: [green.id, blue.id, red.id] });
      expect(reordered.status).toBe(200);
      expect((await reordered.json()).article.tags).toEqual([ref(green), ref(blue), ref(red)]);
      const untagged = await createArticle(api, owner, { title: 'Plain' });
      expect(untagged.tags).toEqual([]);
      const list = await (await api.request('/v1/articles?limit=100', { token: owner })).json();
      const byId = new Map(list.items.map((a: { id: string; tags: unknown }) => [a.id, a.tags]));
      expect(byId.get(article.id)).toEqual([ref(green), ref(blue), ref(red)]);
      expect(byId.get(untagged.id)).toEqual([]);

      const unknown = await patch(`/v1/articles/${article.id}`, { tagIds: [red.id, UNKNOWN] });
      expect(unknown.status).toBe(400);
      const err = await errorOf(unknown);
      expect(err.code).toBe('invalid_request');
      expect(err.message).toContain(UNKNOWN);
      expect(err.issues).toEqual([expect.objectContaining({ path: 'tagIds.1' })]);
      const refused = await api.request('/v1/articles', {
        method: 'POST',
        token: owner,
        json: { title: 'Never', tagIds: [UNKNOWN] },
      });
      expect(refused.status).toBe(400);
      expect((await errorOf(refused)).message).toContain(UNKNOWN);
      for (const tagIds of [[red.id, red.id], ['nope'], 'red']) {
        const res = await patch(`/v1/articles/${article.id}`, { tagIds });
        expect(res.status, JSON.stringify(tagIds)).toBe(400);
      }
      // Nothing half-written.
      const after = await (await api.request(`/v1/articles/${article.id}`, { token: owner })).json();
      expect(after.article.tags).toEqual([ref(green), ref(blue), ref(red)]);

      // A renamed tag shows its new name; a deleted one leaves the article.
      await patch(`/v1/tags/${green.id}`, { name: 'Emerald', slug: 'emerald' });
      expect((await api.request(`/v1/tags/${blue.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
      const now = await (await api.request(`/v1/articles/${article.id}`, { token: owner })).json();
      expect(now.article.tags).toEqual([{ id: green.id, name: 'Emerald', slug: 'emerald' }, ref(red)]);
    });

    it("reads a whole page's tags in the page's own statement, never once per article", async () => {
      const tags = [await createTag({ name: 'Page one' }), await createTag({ name: 'Page two' })];
      for (let i = 0; i < 6; i++) await createArticle(api, owner, { title: `Paged ${i}`, tagIds: [tags[i % 2]!.id] });
      const repo = api.deps.repos.tags;
      const original = repo.refsByIds;
      const calls: (readonly string[])[] = [];
      repo.refsByIds = (ids) => {
        calls.push(ids);
        return original(ids);
      };
      try {
        const page = await (await api.request('/v1/articles?limit=100', { token: owner })).json();
        const paged = page.items.filter((a: { title: string }) => a.title.startsWith('Paged '));
        expect(paged).toHaveLength(6);
        // Names and slugs came with the articles (the list's one statement): no read of tags by id at all.
        for (const a of paged as { title: string; tags: Tag[] }[]) {
          const tag = tags[Number(a.title.slice('Paged '.length)) % 2]!;
          expect(a.tags).toEqual([ref(tag)]);
        }
        expect(calls).toEqual([]);
      } finally {
        repo.refsByIds = original;
      }
    });

    it('filters articles by a tag’s slug, online ones only for the public', async () => {
      const news = await createTag({ name: 'Filter news' });
      const other = await createTag({ name: 'Filter other' });
      const online = await createArticle(api, owner, { title: 'Online news', tagIds: [other.id, news.id] });
      await api.request(`/v1/articles/${online.id}/publish`, { method: 'POST', token: owner });
      const offline = await createArticle(api, owner, { title: 'Offline news', tagIds: [news.id] });
      const elsewhere = await createArticle(api, owner, { title: 'Other', tagIds: [other.id] });
      const ids = async (query: string, token?: string) => {
        const res = await api.request(`/v1/articles?${query}`, token ? { token } : {});
        expect(res.status, query).toBe(200);
        return (await res.json()).items.map((a: { id: string }) => a.id);
      };
      expect(await ids('tag=filter-news', owner)).toEqual([offline.id, online.id]);
      expect(await ids('tag=filter-news')).toEqual([online.id]);
      expect(await ids('tag=filter-news&status=offline', owner)).toEqual([offline.id]);
      expect(await ids('tag=filter-other', owner)).toEqual([elsewhere.id, online.id]);
      expect(await ids('tag=filter-news&limit=1', owner)).toEqual([offline.id]);
      expect(await ids('tag=no-such-tag', owner)).toEqual([]);
      const bad = await api.request('/v1/articles?tag=Not%20A%20Slug', { token: owner });
      expect(bad.status).toBe(400);
      expect((await errorOf(bad)).issues).toEqual([expect.objectContaining({ path: 'tag' })]);
    });

    it('sends the tags with article webhooks', async () => {
      const receiver = await target.webhookReceiver();
      const { secret } = await subscribe(api, owner, receiver.url, ['article.created', 'article.updated']);
      const tag = await createTag({ name: 'Hooked' });
      const article = await createArticle(api, owner, { title: 'Hooked article', tagIds: [tag.id] });
      await patch(`/v1/articles/${article.id}`, { tagIds: [] });
      const messages = await verified(api, await receiver.received(), secret);
      expect(messages.map((m) => [m.type, m.data.tags])).toEqual([
        ['article.created', [ref(tag)]],
        ['article.updated', []],
      ]);
    });

    // Last: on Workers a second harness shares (and empties) the one D1 database.
    it('lets verified accounts and content:write keys write tags, not unverified registrants', async () => {
      const key = await api.request('/v1/api-keys', {
        method: 'POST',
        token: owner,
        json: { name: 'writer', scopes: ['content:write'] },
      });
      const { secret } = await key.json();
      expect((await api.request('/v1/tags', { method: 'POST', token: secret, json: { name: 'By key' } })).status).toBe(
        201,
      );
      const other = await setup();
      try {
        const pending = await registerPending(other, 'pending@example.com');
        const res = await other.request('/v1/tags', { method: 'POST', token: pending.token, json: { name: 'x' } });
        expect(res.status).toBe(403);
        expect((await errorOf(res)).code).toBe('forbidden');
        expect((await (await other.request('/v1/tags')).json()).items).toEqual([]);
      } finally {
        await other.cleanup();
      }
    });
  });
}
