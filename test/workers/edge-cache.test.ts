import { env } from 'cloudflare:test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWorkersEdgeCache,
  EDGE_CACHE_TAG,
  GENERATION_REFRESH_MS,
} from '../../worker/src/adapters/cache/workers.edge-cache.js';
import { createD1Kit } from '../../worker/src/adapters/db/sqlite/d1.js';
import { buildRepositories } from '../../worker/src/app/services.js';
import { buildWorkerDeps } from '../../worker/src/wiring/worker.js';
import { createArticle, registerOwner, upload } from '../support/api-flows.js';
import type { ApiHarness } from '../support/api-harness.js';
import { JPEG_2x3 } from '../support/images.js';
import { countingCache } from './support/counting-cache.js';
import { countingD1 } from './support/counting-d1.js';
import { workerHarness } from './support/worker-harness.js';

/** Changes a title behind the app's back: only a read that reaches D1 can see it. */
const retitle = (id: string, title: string) =>
  env.DB.prepare('UPDATE articles SET title = ? WHERE id = ?').bind(title, id).run();

describe('edge cache and D1 sessions (workerd, Cache API, D1)', () => {
  let api: ApiHarness;
  let owner: string;
  let id: string;

  beforeAll(async () => {
    api = await workerHarness();
    owner = (await registerOwner(api, 'edge-owner@example.com')).token;
    id = (await createArticle(api, owner, { title: 'First' })).id;
    expect((await api.request(`/v1/articles/${id}/publish`, { method: 'POST', token: owner })).status).toBe(200);
  });
  afterAll(async () => {
    await api?.cleanup();
  });

  const title = async (path = `/v1/articles/${id}`, token?: string) =>
    (await (await api.request(path, { token })).json()).article.title;

  it('answers a repeated anonymous read from the data centre’s cache, with the headers and validator of the miss', async () => {
    const miss = await api.request(`/v1/articles/${id}`);
    expect((await miss.json()).article.title).toBe('First');
    await retitle(id, 'Changed behind its back');
    const hit = await api.request(`/v1/articles/${id}`);
    expect((await hit.json()).article.title).toBe('First');
    // Every answer has its own X-Request-Id; everything else must be the same.
    const names = (res: { headers: Headers }) =>
      [...res.headers]
        .filter(([n]) => n !== 'x-request-id')
        .map(([n, v]) => `${n}: ${v}`)
        .sort();
    expect(names(hit)).toEqual(names(miss));
    // A hit is answered before the app runs unless a page on another origin asks (CORS is the middleware's):
    // both ways it is this data centre's copy.
    const crossOrigin = await api.request(`/v1/articles/${id}`, { headers: { origin: 'https://elsewhere.example' } });
    expect((await crossOrigin.json()).article.title).toBe('First');
    expect(crossOrigin.headers.get('vary')).toContain('Origin');
    const cond = await api.request(`/v1/articles/${id}`, { headers: { 'if-none-match': miss.headers.get('etag')! } });
    expect(cond.status).toBe(304);
    // Never for a request with credentials: the owner reads D1.
    expect(await title(`/v1/articles/${id}`, owner)).toBe('Changed behind its back');
  });

  it('misses on the very next read after a write in the same isolate', async () => {
    expect(await title()).toBe('First'); // still the cached copy
    const list = async () => (await (await api.request('/v1/articles')).json()).items.map((a: { id: string }) => a.id);
    expect(await list()).toContain(id);
    const edit = await api.request(`/v1/articles/${id}`, { method: 'PATCH', token: owner, json: { title: 'Second' } });
    expect(edit.status).toBe(200);
    expect(await title()).toBe('Second');
    expect((await api.request(`/v1/articles/${id}/unpublish`, { method: 'POST', token: owner })).status).toBe(200);
    expect((await api.request(`/v1/articles/${id}`)).status).toBe(404);
    expect(await list()).not.toContain(id);
    expect((await api.request(`/v1/articles/${id}/publish`, { method: 'POST', token: owner })).status).toBe(200);
  });

  it('gives requests with credentials the D1 bookmark they reached, and continues from the one sent back', async () => {
    const res = await api.request(`/v1/articles/${id}`, { token: owner });
    const bookmark = res.headers.get('x-d1-bookmark');
    expect(bookmark).toMatch(/^[0-9a-f]+(-[0-9a-f]+)*$/i);
    const next = await api.request(`/v1/articles/${id}`, { token: owner, headers: { 'x-d1-bookmark': bookmark! } });
    expect(next.status).toBe(200);
    expect(next.headers.get('x-d1-bookmark')! >= bookmark!).toBe(true);
    // Something that is not a bookmark is ignored, not an error.
    const junk = await api.request(`/v1/articles/${id}`, { token: owner, headers: { 'x-d1-bookmark': 'drop table' } });
    expect(junk.status).toBe(200);
    // Anonymous answers are the same for everyone: no bookmark in them.
    expect((await api.request(`/v1/articles/${id}`)).headers.get('x-d1-bookmark')).toBeNull();
  });
});

describe('edge cache purge (workerd, Cache API)', () => {
  const repos = buildRepositories(createD1Kit(env.DB));
  const calls: { url: string; auth: string | null; body: string }[] = [];
  let answer = 500;
  const edge = createWorkersEdgeCache({
    cache: (caches as unknown as { default: Cache }).default,
    origin: 'http://purge.test',
    ttlSeconds: 60,
    purge: { zoneId: 'a'.repeat(32), apiToken: 'token-with-purge-rights', apiBase: 'https://api.test/client/v4' },
    state: repos.systemState,
    clock: { now: () => new Date() },
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    newId: () => crypto.randomUUID(),
    fetch: async (input, init) => {
      calls.push({
        url: String(input),
        auth: new Headers(init?.headers).get('authorization'),
        body: String(init?.body),
      });
      return new Response('{}', { status: answer });
    },
  });

  it('purges by tag everywhere after a write, keeps a failed purge owed, and the scheduler retries it once', async () => {
    const { generation } = await edge.lookup('/v1/articles');
    await edge.store('/v1/articles', generation, {
      body: '{"items":[]}',
      contentType: 'application/json',
      etag: '"e"',
    });
    const kept = (await edge.lookup('/v1/articles')).hit;
    expect(kept?.etag).toBe('"e"');
    expect(await new Response(kept?.body).text()).toBe('{"items":[]}');

    await edge.changed('00000001-00000002-00000003-abcdef');
    const after = await edge.lookup('/v1/articles');
    expect(after.hit).toBeUndefined();
    expect(after.readAfter).toBe('00000001-00000002-00000003-abcdef');

    await edge.purge(); // refused (500): owed
    expect(calls).toEqual([
      {
        url: `https://api.test/client/v4/zones/${'a'.repeat(32)}/purge_cache`,
        auth: 'Bearer token-with-purge-rights',
        body: JSON.stringify({ tags: [EDGE_CACHE_TAG] }),
      },
    ]);
    expect(await edge.retry()).toBe('failed');
    answer = 200;
    expect(await edge.retry()).toBe('purged');
    expect(await edge.retry()).toBe('idle');
    expect(calls).toHaveLength(3);
  });
});

describe('uploaded images at the edge, with purge configured (workerd, Cache API, R2)', () => {
  let api: ApiHarness;
  let owner: string;
  const purges: string[] = [];
  beforeAll(async () => {
    api = await workerHarness({}, (deps) => ({
      ...deps,
      edgeCache: createWorkersEdgeCache({
        cache: (caches as unknown as { default: Cache }).default,
        origin: 'http://files.test',
        ttlSeconds: 60,
        purge: { zoneId: 'b'.repeat(32), apiToken: 'token-with-purge-rights', apiBase: 'https://api.test/client/v4' },
        state: deps.repos.systemState,
        clock: deps.clock,
        logger: deps.logger,
        newId: () => crypto.randomUUID(),
        fetch: async (_input, init) => {
          purges.push(String(init?.body));
          return new Response('{}');
        },
      }),
    }));
    owner = (await registerOwner(api, 'files-owner@example.com')).token;
  });
  afterAll(async () => {
    await api?.cleanup();
  });

  it('keeps originals and variants in the data centre, still revalidated by browsers, and never serves a deleted one', async () => {
    const articleId = (await createArticle(api, owner, { title: 'Pictures' })).id;
    const image = (await (await upload(api, owner, articleId, JPEG_2x3)).json()).image as {
      id: string;
      url: string;
      filename: string;
    };
    const urls = [image.url, `${image.url}?w=160&format=webp`];
    const first = new Map<string, { bytes: ArrayBuffer; etag: string; type: string }>();
    for (const url of urls) {
      const res = await api.request(url);
      expect(res.status, url).toBe(200);
      first.set(url, {
        bytes: await res.arrayBuffer(),
        etag: res.headers.get('etag')!,
        type: res.headers.get('content-type')!,
      });
    }
    // Gone from R2 behind the app's back: only the edge copy can answer now.
    const listed = await env.MEDIA.list();
    await env.MEDIA.delete(listed.objects.map((o) => o.key));
    for (const url of urls) {
      const res = await api.request(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, no-cache');
      expect(res.headers.get('etag')).toBe(first.get(url)!.etag);
      expect(res.headers.get('content-type')).toBe(first.get(url)!.type);
      expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(first.get(url)!.bytes));
      const cond = await api.request(url, { headers: { 'if-none-match': first.get(url)!.etag } });
      expect(cond.status, url).toBe(304);
    }
    // A delete is a write: this data centre misses from now on, and every other one is purged.
    expect((await api.request(`/v1/media/${image.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
    for (const url of urls) {
      expect((await api.request(url)).status, url).toBe(404);
      expect((await api.request(url, { headers: { 'if-none-match': first.get(url)!.etag } })).status).toBe(404);
    }
    expect(purges.at(-1)).toBe(JSON.stringify({ tags: [EDGE_CACHE_TAG] }));
  });
});

describe('what a miss costs in D1 (workerd, D1, Cache API)', () => {
  it('answers a miss of an article or of a list page, tagged or not, in one D1 statement, and a hit in none', async () => {
    const d1 = countingD1(env.DB);
    const api = await workerHarness({}, (deps) => buildWorkerDeps({ ...env, DB: d1.db }, deps.settings));
    try {
      const owner = (await registerOwner(api, 'count@example.com')).token;
      const id = (await createArticle(api, owner, { title: 'Counted' })).id;
      expect((await api.request(`/v1/articles/${id}/publish`, { method: 'POST', token: owner })).status).toBe(200);
      const statements = async (path: string) => {
        const before = d1.count();
        const res = await api.request(path);
        expect(res.status, path).toBe(200);
        await res.text();
        return d1.count() - before;
      };
      // The article with its links, its html as stored: nothing rendered, nothing else read.
      expect(await statements(`/v1/articles/${id}`)).toBe(1);
      expect(await statements(`/v1/articles/${id}`)).toBe(0);
      // The page's rows with their author and tag links and whether they show images: no tag, no image, no other read.
      expect(await statements('/v1/articles?limit=5')).toBe(1);
      expect(await statements('/v1/articles?limit=5')).toBe(0);
      // Tags come with the rows, names and slugs included: a page, a tagged list and a read that show tags are one statement still.
      const tag = await api.request('/v1/tags', {
        method: 'POST',
        token: owner,
        json: { name: 'Counted', slug: 'counted' },
      });
      expect(tag.status).toBe(201);
      const tagIds = [(await tag.json()).tag.id];
      const tagged = await api.request(`/v1/articles/${id}`, { method: 'PATCH', token: owner, json: { tagIds } });
      expect(tagged.status).toBe(200);
      expect(await statements('/v1/articles?limit=5')).toBe(1);
      expect(await statements('/v1/articles?tag=counted&limit=5')).toBe(1);
      expect(await statements(`/v1/articles/${id}`)).toBe(1);
      const { items } = await (await api.request('/v1/articles?tag=counted')).json();
      expect(items[0].tags).toEqual([{ id: tagIds[0], name: 'Counted', slug: 'counted' }]);
    } finally {
      await api.cleanup();
    }
  });
});

describe('what a hit costs in Cache API reads (workerd, Cache API)', () => {
  it('answers a hit in one Cache API read; a write misses at once in its isolate, within the refresh in the others', async () => {
    const repos = buildRepositories(createD1Kit(env.DB));
    const counted = countingCache((caches as unknown as { default: Cache }).default);
    let now = Date.parse('2026-11-28T12:00:00Z');
    // Two edge caches over one Cache API: two isolates of one data centre.
    const isolate = () =>
      createWorkersEdgeCache({
        cache: counted.cache,
        origin: 'http://generation.test',
        ttlSeconds: 60,
        purge: undefined,
        state: repos.systemState,
        clock: { now: () => new Date(now) },
        logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
        newId: () => crypto.randomUUID(),
      });
    const writer = isolate();
    const reader = isolate();
    const url = `/v1/articles?tag=${crypto.randomUUID()}`;
    const etagOf = async (edge: typeof writer) => {
      const { hit } = await edge.lookup(url);
      await hit?.body?.cancel();
      return hit?.etag;
    };
    const { generation } = await writer.lookup(url);
    await writer.store(url, generation, { body: '{"items":[]}', contentType: 'application/json', etag: '"kept"' });
    expect(await etagOf(reader)).toBe('"kept"');

    const before = counted.matches();
    expect(await etagOf(reader)).toBe('"kept"');
    expect(counted.matches() - before).toBe(1);

    await writer.changed(null);
    // The writer's isolate misses on its very next read, without asking the cache for the generation.
    expect(await etagOf(writer)).toBeUndefined();
    // Another isolate trusts the generation it read for GENERATION_REFRESH_MS, then reads it again and misses.
    now += GENERATION_REFRESH_MS - 1;
    expect(await etagOf(reader)).toBe('"kept"');
    now += 1;
    expect(await etagOf(reader)).toBeUndefined();
  });
});
