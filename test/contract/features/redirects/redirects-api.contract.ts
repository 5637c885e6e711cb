import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, registerOwner, registerPending } from '../../../support/api-flows.js';
import type { ApiHarness, SetupApi } from '../../../support/api-harness.js';
import { LONG_PATH } from './redirects-repository.contract.js';

const UNKNOWN = '0190a000-0000-7000-8000-000000000000';

type Redirect = { id: string; from: string; to: string; status: number; createdAt: string; updatedAt: string };

/** Redirects per docs/api.md#redirects: where the sites' old paths go now. */
export function runRedirectsApiContract(name: string, setup: SetupApi) {
  describe(`redirects API (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'owner@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const post = (json: unknown, token = owner) => api.request('/v1/redirects', { method: 'POST', token, json });
    const patch = (id: string, json: unknown) =>
      api.request(`/v1/redirects/${id}`, { method: 'PATCH', token: owner, json });
    const lookup = (path: string) => api.request(`/v1/redirects/lookup?path=${encodeURIComponent(path)}`);
    async function create(json: Record<string, unknown>): Promise<Redirect> {
      const res = await post(json);
      expect(res.status, JSON.stringify(json)).toBe(201);
      return (await res.json()).redirect;
    }
    const logged = async (action: string) =>
      (await (await api.request(`/v1/activity?action=${action}&limit=100`, { token: owner })).json()).items as {
        subjectType: string;
        subjectId: string;
        details: unknown;
      }[];

    it('creates a redirect (301 by default, from normalised), reads, looks up and lists it; reads are public', async () => {
      const res = await post({ from: '/old/news/', to: 'https://elsewhere.example/news?x=1#top', evil: true });
      expect(res.status).toBe(201);
      const { redirect } = await res.json();
      expect(Object.keys(redirect).sort()).toEqual(['createdAt', 'from', 'id', 'status', 'to', 'updatedAt']);
      expect(redirect).toMatchObject({ from: '/old/news', to: 'https://elsewhere.example/news?x=1#top', status: 301 });
      expect(redirect.updatedAt).toBe(redirect.createdAt);
      expect(new Date(redirect.createdAt).toISOString()).toBe(redirect.createdAt);

      const read = await api.request(`/v1/redirects/${redirect.id}`);
      expect(read.status).toBe(200);
      expect((await read.json()).redirect).toEqual(redirect);
      for (const path of ['/old/news', '/old/news/', '/old/news//']) {
        const found = await lookup(path);
        expect(found.status, path).toBe(200);
        expect((await found.json()).redirect).toEqual(redirect);
      }
      // Case-sensitive, and the path alone: no prefix, no parent.
      for (const path of ['/Old/news', '/old', '/old/news/more']) {
        const res = await lookup(path);
        expect(res.status, path).toBe(404);
        expect((await errorOf(res)).code).toBe('not_found');
      }

      const root = await create({ from: '/', to: '/home', status: 308 });
      expect(root).toMatchObject({ from: '/', to: '/home', status: 308 });
      expect((await (await lookup('/')).json()).redirect).toEqual(root);
      const list = await (await api.request('/v1/redirects?limit=1')).json();
      expect(list.items).toEqual([root]);
      expect(list.nextCursor).toEqual(expect.any(String));
      const next = await (await api.request(`/v1/redirects?limit=1&cursor=${list.nextCursor}`)).json();
      expect(next.items).toEqual([redirect]);

      expect((await logged('redirect.create')).slice(0, 2)).toEqual([
        expect.objectContaining({
          subjectType: 'redirect',
          subjectId: root.id,
          details: { from: '/', to: '/home', status: 308 },
        }),
        expect.objectContaining({
          subjectId: redirect.id,
          details: { from: '/old/news', to: 'https://elsewhere.example/news?x=1#top', status: 301 },
        }),
      ]);
    });

    it('keeps from unique (409 conflict naming from), also as a trailing-slash variant, on create and on change', async () => {
      await create({ from: '/taken', to: '/new' });
      for (const from of ['/taken', '/taken/']) {
        const res = await post({ from, to: '/other' });
        expect(res.status, from).toBe(409);
        const err = await errorOf(res);
        expect(err.code).toBe('conflict');
        expect(err.issues).toEqual([expect.objectContaining({ path: 'from' })]);
      }
      const other = await create({ from: '/free', to: '/new' });
      expect((await patch(other.id, { from: '/taken/' })).status).toBe(409);
      expect((await (await api.request(`/v1/redirects/${other.id}`)).json()).redirect).toEqual(other);
      // Case counts: another path.
      expect((await create({ from: '/Taken', to: '/new' })).from).toBe('/Taken');
      // A path of 2,000 characters too long for any index entry is unique all the same.
      const long = await create({ from: LONG_PATH, to: '/short' });
      expect(long.from).toBe(LONG_PATH);
      expect((await post({ from: LONG_PATH, to: '/other' })).status).toBe(409);
    });

    it('refuses a bad from, to or status, and a redirect to its own path, with 400 naming the field', async () => {
      const bad: Array<[Record<string, unknown>, string]> = [
        [{ to: '/x' }, 'from'],
        [{ from: 'old', to: '/x' }, 'from'],
        [{ from: 'https://site.example/old', to: '/x' }, 'from'],
        [{ from: '/old?page=2', to: '/x' }, 'from'],
        [{ from: '/old#part', to: '/x' }, 'from'],
        [{ from: '/old page', to: '/x' }, 'from'],
        [{ from: '/old\u00a0page', to: '/x' }, 'from'],
        [{ from: '/old\u0000', to: '/x' }, 'from'],
        [{ from: `/${'a'.repeat(2000)}`, to: '/x' }, 'from'],
        [{ from: '', to: '/x' }, 'from'],
        [{ from: 42, to: '/x' }, 'from'],
        [{ from: '/a' }, 'to'],
        [{ from: '/a', to: 'javascript:alert(1)' }, 'to'],
        [{ from: '/a', to: 'new/place' }, 'to'],
        [{ from: '/a', to: '//evil.example/x' }, 'to'],
        [{ from: '/a', to: '/\\evil.example' }, 'to'],
        [{ from: '/a', to: 'ftp://files.example/x' }, 'to'],
        [{ from: '/a', to: '/new place' }, 'to'],
        [{ from: '/a', to: `/${'b'.repeat(2000)}` }, 'to'],
        [{ from: '/a', to: '/b', status: 200 }, 'status'],
        [{ from: '/a', to: '/b', status: '301' }, 'status'],
        [{ from: '/a', to: '/b', status: 303 }, 'status'],
        // To itself, however it is written: the lookup matches the path alone.
        [{ from: '/a', to: '/a' }, 'to'],
        [{ from: '/a/', to: '/a' }, 'to'],
        [{ from: '/a', to: '/a/?utm=1' }, 'to'],
        [{ from: '/', to: '/#top' }, 'to'],
      ];
      for (const [json, path] of bad) {
        const res = await post(json);
        expect(res.status, JSON.stringify(json)).toBe(400);
        const err = await errorOf(res);
        expect(err.code).toBe('invalid_request');
        expect(err.issues, JSON.stringify(json)).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
      }
      expect((await (await api.request('/v1/redirects/lookup?path=/a')).json()).error.code).toBe('not_found');
      // The path asked for follows the rules of from; none at all is a 400 too.
      for (const query of ['', '?path=old', '?path=%2Fold%3Fx%3D1', '?path=/a&other=1']) {
        const res = await api.request(`/v1/redirects/lookup${query}`);
        expect(res.status, query).toBe(400);
      }
      const made = await create({ from: '/a', to: '/b' });
      // A change that would send it back to itself, from either side.
      for (const json of [{ to: '/a/' }, { from: '/b' }]) {
        const res = await patch(made.id, json);
        expect(res.status, JSON.stringify(json)).toBe(400);
        expect((await errorOf(res)).issues).toEqual([expect.objectContaining({ path: 'to' })]);
      }
      expect((await patch(made.id, { from: 'nope' })).status).toBe(400);
      expect((await (await api.request(`/v1/redirects/${made.id}`)).json()).redirect).toEqual(made);
    });

    it('changes only the fields given; a change naming none changes and logs nothing; deletes', async () => {
      const made = await create({ from: '/before', to: '/target', status: 302 });
      api.clock.advance(1000);
      const same = await patch(made.id, {});
      expect(same.status).toBe(200);
      expect((await same.json()).redirect).toEqual(made);
      expect((await logged('redirect.update')).filter((e) => e.subjectId === made.id)).toEqual([]);

      api.clock.advance(1000);
      const moved = await patch(made.id, { to: 'https://new.example/' });
      expect(moved.status).toBe(200);
      const changed = (await moved.json()).redirect;
      expect(changed).toEqual({ ...made, to: 'https://new.example/', updatedAt: changed.updatedAt });
      expect(changed.updatedAt > made.updatedAt).toBe(true);
      const renamed = (await (await patch(made.id, { from: '/after/', status: 307 })).json()).redirect;
      expect(renamed).toEqual({ ...changed, from: '/after', status: 307, updatedAt: renamed.updatedAt });
      expect((await lookup('/before')).status).toBe(404);
      expect((await (await lookup('/after')).json()).redirect).toEqual(renamed);
      expect((await logged('redirect.update')).filter((e) => e.subjectId === made.id).map((e) => e.details)).toEqual([
        { from: '/after', to: 'https://new.example/', status: 307 },
        { from: '/before', to: 'https://new.example/', status: 302 },
      ]);

      expect((await api.request(`/v1/redirects/${made.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
      expect((await api.request(`/v1/redirects/${made.id}`)).status).toBe(404);
      expect((await lookup('/after')).status).toBe(404);
      expect((await api.request(`/v1/redirects/${made.id}`, { method: 'DELETE', token: owner })).status).toBe(404);
      expect((await logged('redirect.delete')).filter((e) => e.subjectId === made.id)).toEqual([
        expect.objectContaining({ details: { from: '/after', to: 'https://new.example/', status: 307 } }),
      ]);
      // Its from is free again.
      expect((await create({ from: '/after', to: '/elsewhere' })).from).toBe('/after');
    });

    it('answers anonymous writes with 401 and unknown or malformed ids with a uniform 404', async () => {
      const kept = await create({ from: '/kept', to: '/x' });
      for (const [method, path, json] of [
        ['POST', '/v1/redirects', { from: '/y', to: '/x' }],
        ['PATCH', `/v1/redirects/${kept.id}`, { to: '/z' }],
        ['DELETE', `/v1/redirects/${kept.id}`, undefined],
      ] as const) {
        const res = await api.request(path, json === undefined ? { method } : { method, json });
        expect(res.status, `${method} ${path}`).toBe(401);
      }
      expect((await (await api.request(`/v1/redirects/${kept.id}`)).json()).redirect).toEqual(kept);
      for (const id of [UNKNOWN, 'not-a-uuid', '1%27%20or%201%3D1']) {
        for (const [method, json] of [
          ['GET', undefined],
          ['PATCH', { to: '/z' }],
          ['DELETE', undefined],
        ] as const) {
          const res = await api.request(
            `/v1/redirects/${id}`,
            json === undefined ? { method, token: owner } : { method, token: owner, json },
          );
          expect(res.status, `${method} ${id}`).toBe(404);
          expect((await errorOf(res)).code).toBe('not_found');
        }
      }
    });

    // Last: on Workers a second harness shares (and empties) the one D1 database.
    it('lets verified accounts and content:write keys write redirects, not content:read keys or unverified registrants', async () => {
      const key = async (scopes: string[]) =>
        (
          await (
            await api.request('/v1/api-keys', { method: 'POST', token: owner, json: { name: 'k', scopes } })
          ).json()
        ).secret as string;
      expect((await post({ from: '/by-key', to: '/x' }, await key(['content:write']))).status).toBe(201);
      const reader = await post({ from: '/by-reader', to: '/x' }, await key(['content:read']));
      expect(reader.status).toBe(403);
      expect((await errorOf(reader)).code).toBe('forbidden');
      const other = await setup();
      try {
        const pending = await registerPending(other, 'pending@example.com');
        const res = await other.request('/v1/redirects', {
          method: 'POST',
          token: pending.token,
          json: { from: '/x', to: '/y' },
        });
        expect(res.status).toBe(403);
        expect((await errorOf(res)).code).toBe('forbidden');
        expect((await (await other.request('/v1/redirects')).json()).items).toEqual([]);
      } finally {
        await other.cleanup();
      }
    });
  });
}
