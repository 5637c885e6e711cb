import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness, RequestOptions, TestResponse } from '../../../support/api-harness.js';
import { runJobs } from '../../../support/webhook-flows.js';

/**
 * Optimistic concurrency (docs/api.md#optimistic-concurrency): an
 * editor's read carries the article's ETag; every write honours If-Match and
 * answers 412 with the current version when it names none, having written
 * nothing; without If-Match writes are unconditional, as before.
 */
export function runConcurrencyApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`article versions and If-Match (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let writer: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'versions@example.com')).token;
      const res = await api.request('/v1/api-keys', {
        method: 'POST',
        token: owner,
        json: { name: 'w', scopes: ['content:write'] },
      });
      writer = (await res.json()).secret;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const read = (id: string, token = owner) => api.request(`/v1/articles/${id}`, { token });
    const etagOf = async (id: string) => (await read(id)).headers.get('etag')!;
    const write = (method: string, path: string, ifMatch: string | undefined, extra: RequestOptions = {}) =>
      api.request(path, {
        method,
        token: owner,
        ...extra,
        headers: { ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }), ...extra.headers },
      });
    const expectStale = async (res: TestResponse, current: { id: string; title: string }) => {
      expect(res.status).toBe(412);
      const body = await res.json();
      expect(body.error.code).toBe('conflict');
      expect(body.article).toMatchObject(current);
      expect(res.headers.get('etag')).toBe(`"v${body.version}"`);
      expect(body.article.version).toBe(body.version);
      return body;
    };

    it('gives an editor the ETag of the stored version; each write raises it and answers the new one', async () => {
      const createdRes = await api.request('/v1/articles', { method: 'POST', token: owner, json: { title: 'First' } });
      expect(createdRes.headers.get('etag')).toBe('"v1"');
      const created = (await createdRes.json()).article;
      expect(created.version).toBe(1);
      const first = await read(created.id);
      expect(first.headers.get('etag')).toBe('"v1"');
      const patched = await write('PATCH', `/v1/articles/${created.id}`, '"v1"', { json: { title: 'Second' } });
      expect(patched.status).toBe(200);
      expect(patched.headers.get('etag')).toBe('"v2"');
      expect((await patched.json()).article).toMatchObject({ title: 'Second', version: 2 });
      const published = await write('POST', `/v1/articles/${created.id}/publish`, '"v2"');
      expect(published.headers.get('etag')).toBe('"v3"');
      const seo = await write('PUT', `/v1/articles/${created.id}/seo`, '"v3"', { json: { metaTitle: 'M' } });
      expect(seo.status).toBe(200);
      expect(seo.headers.get('etag')).toBe('"v4"');
      const unpublished = await write('POST', `/v1/articles/${created.id}/unpublish`, '"v4"');
      expect(unpublished.headers.get('etag')).toBe('"v5"');
      expect(await etagOf(created.id)).toBe('"v5"');
      // Two writes in the same millisecond still make two versions.
      await write('PATCH', `/v1/articles/${created.id}`, undefined, { json: { body: 'a' } });
      await write('PATCH', `/v1/articles/${created.id}`, undefined, { json: { body: 'b' } });
      expect(await etagOf(created.id)).toBe('"v7"');
    });

    it('refuses a stale write with 412, the current version and article, and writes nothing', async () => {
      const a = await createArticle(api, owner, { title: 'Shared', body: 'old body' });
      const stale = await etagOf(a.id);
      // Editor A renames it; editor B, still on the old version, saves a body change.
      expect((await write('PATCH', `/v1/articles/${a.id}`, stale, { json: { title: 'Renamed by A' } })).status).toBe(
        200,
      );
      const refused = await write('PATCH', `/v1/articles/${a.id}`, stale, { json: { body: 'B overwrites' } });
      const conflict = await expectStale(refused, { id: a.id, title: 'Renamed by A' });
      expect(conflict.article.body).toBe('old body');
      for (const [method, path, json] of [
        ['POST', `/v1/articles/${a.id}/publish`],
        ['POST', `/v1/articles/${a.id}/unpublish`],
        ['PUT', `/v1/articles/${a.id}/seo`, { metaTitle: 'B' }],
        ['DELETE', `/v1/articles/${a.id}`],
      ] as const) {
        await expectStale(await write(method, path, stale, json ? { json } : {}), { id: a.id, title: 'Renamed by A' });
      }
      const after = await (await read(a.id)).json();
      expect(after.article).toMatchObject({ title: 'Renamed by A', body: 'old body', status: 'offline', version: 2 });
      expect(after.article.seo.metaTitle).toBeNull();
      // A patch naming no field still checks the version.
      await expectStale(await write('PATCH', `/v1/articles/${a.id}`, stale, { json: {} }), {
        id: a.id,
        title: 'Renamed by A',
      });
    });

    it('keeps the version when a schedule is set or cancelled, and raises it when the scheduler publishes', async () => {
      const a = await createArticle(api, owner);
      const publishAt = new Date(api.clock.now().getTime() + 3_600_000).toISOString();
      const scheduled = await api.request(`/v1/articles/${a.id}/schedule`, {
        method: 'POST',
        token: owner,
        json: { publishAt },
      });
      expect(scheduled.status).toBe(200);
      expect((await scheduled.json()).article.version).toBe(1);
      expect(await etagOf(a.id)).toBe('"v1"');
      // The editor's next save, on the tag it had before scheduling, goes through.
      expect((await write('PATCH', `/v1/articles/${a.id}`, '"v1"', { json: { body: 'later' } })).status).toBe(200);
      const cancelled = await api.request(`/v1/articles/${a.id}/schedule`, { method: 'DELETE', token: owner });
      expect(cancelled.status).toBe(204);
      expect(await etagOf(a.id)).toBe('"v2"');
      await api.request(`/v1/articles/${a.id}/schedule`, { method: 'POST', token: owner, json: { publishAt } });
      api.clock.advance(2 * 3_600_000);
      await runJobs(api);
      const published = (await (await read(a.id)).json()).article;
      expect(published).toMatchObject({ status: 'online', version: 3 });
    });

    it('lets exactly one of several racing writes on one version through', async () => {
      const author = async (n: string) =>
        (
          await (
            await api.request('/v1/authors', { method: 'POST', token: owner, json: { name: n, slug: `race-${n}` } })
          ).json()
        ).author.id as string;
      const authors = [await author('a'), await author('b'), await author('c'), await author('d')];
      const a = await createArticle(api, owner);
      const results = await Promise.all(
        authors.map((id, i) =>
          write('PATCH', `/v1/articles/${a.id}`, '"v1"', { json: { title: `racer ${i}`, authorIds: [id] } }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 412, 412, 412]);
      const winner = await results.find((r) => r.status === 200)!.json();
      for (const r of results) if (r.status === 412) await r.json();
      const stored = (await (await read(a.id)).json()).article;
      // The winner's title and its author, together: no loser wrote either.
      expect(stored).toMatchObject({ title: winner.article.title, authorIds: winner.article.authorIds, version: 2 });
      expect(stored.authorIds).toHaveLength(1);
    });

    it('keeps the author links as they were when a stale write names authors', async () => {
      const author = async (n: string) =>
        (
          await (
            await api.request('/v1/authors', { method: 'POST', token: owner, json: { name: n, slug: n.toLowerCase() } })
          ).json()
        ).author.id as string;
      const [x, y] = [await author('X'), await author('Y')];
      const a = await createArticle(api, owner, { authorIds: [x] });
      const stale = await etagOf(a.id);
      await write('PATCH', `/v1/articles/${a.id}`, stale, { json: { title: 'moved on' } });
      await expectStale(await write('PATCH', `/v1/articles/${a.id}`, stale, { json: { authorIds: [y, x] } }), {
        id: a.id,
        title: 'moved on',
      });
      expect((await (await read(a.id)).json()).article.authorIds).toEqual([x]);
      const fresh = await etagOf(a.id);
      const ok = await write('PATCH', `/v1/articles/${a.id}`, fresh, { json: { authorIds: [y, x] } });
      expect((await ok.json()).article.authorIds).toEqual([y, x]);
    });

    it('accepts *, a list of tags, and no If-Match; refuses weak tags and a malformed header', async () => {
      const a = await createArticle(api, owner);
      expect((await write('PATCH', `/v1/articles/${a.id}`, '*', { json: { title: 'star' } })).status).toBe(200);
      const listed = await write('PATCH', `/v1/articles/${a.id}`, '"v9", "other", "v2"', { json: { title: 'list' } });
      expect(listed.status).toBe(200);
      expect(listed.headers.get('etag')).toBe('"v3"');
      // If-Match compares strongly: a weak tag never matches.
      await expectStale(await write('PATCH', `/v1/articles/${a.id}`, 'W/"v3"', { json: { title: 'weak' } }), {
        id: a.id,
        title: 'list',
      });
      // Tags that are not ours, or versions no column could hold, name no version.
      for (const tag of ['"other"', '"v0"', '"v2147483648"', '"v99999999999999999999"', '"V3"']) {
        await expectStale(await write('PATCH', `/v1/articles/${a.id}`, tag, { json: { title: 'x' } }), {
          id: a.id,
          title: 'list',
        });
      }
      const malformed = await write('PATCH', `/v1/articles/${a.id}`, 'v3', { json: { title: 'bad' } });
      expect(malformed.status).toBe(400);
      expect((await errorOf(malformed)).code).toBe('invalid_request');
      expect((await write('PATCH', `/v1/articles/${a.id}`, undefined, { json: { title: 'none' } })).status).toBe(200);
      // Unknown stays the uniform 404, with or without If-Match.
      const unknown = '0190a000-0000-7000-8000-000000000000';
      expect((await write('PATCH', `/v1/articles/${unknown}`, '"v1"', { json: { title: 'x' } })).status).toBe(404);
      expect((await write('DELETE', `/v1/articles/${unknown}`, '*')).status).toBe(404);
      // A matching delete deletes.
      expect((await write('DELETE', `/v1/articles/${a.id}`, await etagOf(a.id))).status).toBe(204);
      expect((await read(a.id)).status).toBe(404);
    });

    it('shows the current article on a 412 only to a caller who may read it, and no ETag to the public', async () => {
      const a = await createArticle(api, owner, { title: 'Secret draft' });
      await write('PATCH', `/v1/articles/${a.id}`, undefined, { json: { body: 'moved on' } });
      const refused = await api.request(`/v1/articles/${a.id}`, {
        method: 'PATCH',
        token: writer,
        headers: { 'if-match': '"v1"' },
        json: { title: 'x' },
      });
      expect(refused.status).toBe(412);
      const body = await refused.json();
      expect(body).toEqual({ error: expect.objectContaining({ code: 'conflict' }), version: 2 });
      // A write the key may not read answers 204, with the new version all the same.
      const done = await api.request(`/v1/articles/${a.id}`, {
        method: 'PATCH',
        token: writer,
        headers: { 'if-match': '"v2"' },
        json: { title: 'y' },
      });
      expect(done.status).toBe(204);
      expect(done.headers.get('etag')).toBe('"v3"');
      await write('POST', `/v1/articles/${a.id}/publish`, undefined);
      // Shared answers (the public, a key that may not read offline articles)
      // never carry the version: it does not change when an image is added.
      for (const token of [undefined, writer]) {
        const shared = await api.request(`/v1/articles/${a.id}`, { token });
        expect(shared.status).toBe(200);
        expect(shared.headers.get('etag')).not.toBe('"v4"');
        expect((await shared.json()).article.version).toBe(4);
      }
      expect(await etagOf(a.id)).toBe('"v4"');
    });
  });
}
