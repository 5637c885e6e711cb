import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../worker/src/http/middleware/security-headers.js';
import { createArticle, registerOwner } from '../support/api-flows.js';
import { type NodeHarness, nodeHarness } from '../support/node-harness.js';

/**
 * The anonymous read cache of Node with SQLite (http/middleware/public-read-cache.ts):
 * a hit is answered before routing and authentication, so it must be
 * indistinguishable from the answer it stores, and must never outlive a write
 * or reach a request with credentials.
 */
describe('public read cache (Node, SQLite)', () => {
  let api: NodeHarness;
  let owner: string;

  beforeAll(async () => {
    api = await nodeHarness({ db: 'sqlite', storage: 'local' });
    owner = (await registerOwner(api, 'cache-owner@example.com')).token;
  });
  afterAll(async () => {
    await api?.cleanup();
  });

  const published = async (title: string) => {
    const article = await createArticle(api, owner, { title });
    expect((await api.request(`/v1/articles/${article.id}/publish`, { method: 'POST', token: owner })).status).toBe(
      200,
    );
    return article.id;
  };
  // Every answer has its own X-Request-Id; everything else must be the same.
  const headersOf = (res: { headers: Headers }) =>
    [...res.headers].filter(([name]) => name !== 'x-request-id').sort(([a], [b]) => a.localeCompare(b));

  it('answers a repeated anonymous read with the same body and the same headers, security headers included', async () => {
    const id = await published('Cached once');
    const miss = await api.request(`/v1/articles/${id}`);
    const hit = await api.request(`/v1/articles/${id}`);
    expect(hit.status).toBe(200);
    expect(await hit.text()).toBe(await miss.text());
    expect(headersOf(hit)).toEqual(headersOf(miss));
    // An anonymous public read may be embedded elsewhere (docs/api.md#cross-origin): CORP is the one header that differs.
    for (const [name, value] of SECURITY_HEADERS)
      expect(hit.headers.get(name)).toBe(name === 'Cross-Origin-Resource-Policy' ? 'cross-origin' : value);
    expect(api.deps.publicReadCache!.size()).toBeGreaterThan(0);
  });

  it('gives a hit its own X-Request-Id and one access line, and cross-origin hits their CORS headers', async () => {
    const id = await published('Logged hit');
    const miss = await api.request(`/v1/articles/${id}`);
    const hits = [await api.request(`/v1/articles/${id}`), await api.request(`/v1/articles/${id}`)];
    const ids = [miss, ...hits].map((r) => r.headers.get('x-request-id') ?? '');
    expect(new Set(ids).size).toBe(3);
    const access = (requestId: string) =>
      api.logLines.map((l) => JSON.parse(l)).filter((r) => r.message === 'request' && r.requestId === requestId);
    expect(access(ids[0]!)).toMatchObject([{ method: 'GET', route: '/v1/articles/{id}', status: 200 }]);
    // Answered before any route, like every answer no route gave.
    for (const requestId of ids.slice(1)) {
      expect(access(requestId)).toMatchObject([{ level: 'info', method: 'GET', route: '/*', status: 200 }]);
    }
    // With an Origin the hit goes through the CORS layer: the site's pages may read it.
    const site = await api.request('/v1/sites', {
      method: 'POST',
      token: owner,
      json: { name: 'Cached site', baseUrl: 'https://cached.example' },
    });
    expect(site.status).toBe(201);
    const fromSite = () => api.request(`/v1/articles/${id}`, { headers: { origin: 'https://cached.example' } });
    expect((await fromSite()).status).toBe(200); // the site's write emptied the cache: stored again
    const crossOrigin = await fromSite();
    expect(crossOrigin.status).toBe(200);
    expect(access(crossOrigin.headers.get('x-request-id') ?? '')).toMatchObject([{ route: '/*' }]);
    expect(crossOrigin.headers.get('access-control-allow-origin')).toBe('https://cached.example');
    expect(await crossOrigin.text()).toBe(await hits[0]!.text());
  });

  it('shows a change on the very next read, for single articles and lists', async () => {
    const id = await published('Before');
    const list = async () =>
      (await (await api.request('/v1/articles?limit=50')).json()).items.map((a: { title: string }) => a.title);
    expect((await (await api.request(`/v1/articles/${id}`)).json()).article.title).toBe('Before');
    expect(await list()).toContain('Before');
    expect(
      (await api.request(`/v1/articles/${id}`, { method: 'PATCH', token: owner, json: { title: 'After' } })).status,
    ).toBe(200);
    expect((await (await api.request(`/v1/articles/${id}`)).json()).article.title).toBe('After');
    expect(await list()).toContain('After');
    expect(await list()).not.toContain('Before');
  });

  it('never answers a request with credentials from the cache', async () => {
    const id = await published('Mine');
    expect((await api.request(`/v1/articles/${id}`)).status).toBe(200); // stored
    // A bad token is a 401 even where the anonymous answer is cached.
    expect((await api.request(`/v1/articles/${id}`, { token: 'not-a-token' })).status).toBe(401);
    // The same URL answers differently with a session: the draft is only in the owner's list.
    await createArticle(api, owner, { title: 'Draft only' });
    const titles = async (token?: string) =>
      (await (await api.request('/v1/articles?limit=100', { token })).json()).items.map(
        (a: { title: string }) => a.title,
      );
    expect(await titles()).not.toContain('Draft only'); // stored
    expect(await titles()).not.toContain('Draft only'); // a hit
    expect(await titles(owner)).toContain('Draft only');
  });

  it('keeps answers apart by query', async () => {
    await published('Query A');
    await published('Query B');
    const one = await (await api.request('/v1/articles?limit=1')).json();
    const two = await (await api.request('/v1/articles?limit=2')).json();
    expect(one.items).toHaveLength(1);
    expect(two.items).toHaveLength(2);
    expect((await (await api.request('/v1/articles?limit=1')).json()).items).toHaveLength(1);
  });

  it('keeps reads by slug and the list by its every parameter, and shows a change at once', async () => {
    const id = await published('Slug cached');
    const path = '/v1/articles/slug/slug-cached';
    const miss = await api.request(path);
    const hit = await api.request(path);
    const routeOf = (res: { headers: Headers }) =>
      api.logLines
        .map((l) => JSON.parse(l))
        .find((r) => r.message === 'request' && r.requestId === res.headers.get('x-request-id'))?.route;
    expect([routeOf(miss), routeOf(hit)]).toEqual(['/v1/articles/slug/{slug}', '/*']);
    expect(await hit.text()).toBe(await miss.text());
    const first = async (query: string) => (await (await api.request(`/v1/articles?limit=1&${query}`)).json()).items[0];
    expect(Object.keys(await first('fields=title'))).toEqual(['id', 'title']);
    expect(Object.keys(await first('fields=slug'))).toEqual(['id', 'slug']);
    expect(
      (await api.request(`/v1/articles/${id}`, { method: 'PATCH', token: owner, json: { title: 'Slug renamed' } }))
        .status,
    ).toBe(200);
    expect((await (await api.request(path)).json()).article.title).toBe('Slug renamed');
  });

  it('answers If-None-Match from the cache with a 304 carrying the same validator and headers', async () => {
    const id = await published('Validated');
    const miss = await api.request(`/v1/articles/${id}`);
    const etag = miss.headers.get('etag')!;
    expect(await api.request(`/v1/articles/${id}`)).toBeTruthy(); // now a hit
    const hit = await api.request(`/v1/articles/${id}`, { headers: { 'if-none-match': etag } });
    expect(hit.status).toBe(304);
    expect(await hit.text()).toBe('');
    // The same as the route itself answers a 304 (public-read.ts): everything but the body's type.
    api.deps.publicReadCache!.invalidate();
    const routed = await api.request(`/v1/articles/${id}`, { headers: { 'if-none-match': etag } });
    expect(routed.status).toBe(304);
    expect(headersOf(hit)).toEqual(headersOf(routed));
    expect(headersOf(hit)).toEqual(headersOf(miss).filter(([name]) => name !== 'content-type'));
    // A stale validator gets the new answer, from the cache too.
    expect(
      (await api.request(`/v1/articles/${id}`, { method: 'PATCH', token: owner, json: { title: 'V2' } })).status,
    ).toBe(200);
    expect((await api.request(`/v1/articles/${id}`)).status).toBe(200); // stored again
    const stale = await api.request(`/v1/articles/${id}`, { headers: { 'if-none-match': etag } });
    expect(stale.status).toBe(200);
    expect((await stale.json()).article.title).toBe('V2');
  });
});

describe('public read cache switched off (Node, SQLite, PUBLIC_READ_CACHE=off)', () => {
  let api: NodeHarness;

  beforeAll(async () => {
    api = await nodeHarness({ db: 'sqlite', storage: 'local', settings: { PUBLIC_READ_CACHE: 'off' } });
  });
  afterAll(async () => {
    await api?.cleanup();
  });

  it('has no cache, and every read asks the database', async () => {
    const { token } = await registerOwner(api, 'cache-off@example.com');
    const article = await createArticle(api, token, { title: 'Uncached' });
    expect((await api.request(`/v1/articles/${article.id}/publish`, { method: 'POST', token })).status).toBe(200);
    expect(api.deps.publicReadCache).toBeUndefined();
    const read = async () => (await (await api.request(`/v1/articles/${article.id}`)).json()).article.title;
    expect(await read()).toBe('Uncached');
    expect(await read()).toBe('Uncached');
  });
});
