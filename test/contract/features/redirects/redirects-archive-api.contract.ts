import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../worker/src/core/shared/crypto.js';
import { errorOf, registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness, SetupApi } from '../../../support/api-harness.js';
import { craftArchive, expectNothingImported, gunzipLines, importInto } from '../../../support/archives.js';
import { newId } from '../../../support/db-contract.js';

const NOW = '2026-01-02T03:04:05.678Z';

const archivedRedirect = async (over: Record<string, unknown> = {}) => {
  const row = { id: newId(), from: '/old', to: '/new', status: 301, createdAt: NOW, updatedAt: NOW, ...over };
  return { fromHash: await sha256Hex(String(row.from)), ...row };
};

/**
 * Redirects in export archives (docs/backups.md): carried like tags, and
 * checked on import by the API's own rules, so an archive cannot bring a
 * redirect no request could have made (a `javascript:` target, a loop).
 */
export function runRedirectsArchiveApiContract(name: string, setup: SetupApi) {
  describe(`redirects in export archives (${name})`, () => {
    const made: ApiHarness[] = [];
    afterEach(async () => {
      for (const api of made.splice(0)) await api.cleanup();
    });
    const fresh = async () => {
      const api = await setup();
      made.push(api);
      return { api, token: (await registerOwner(api, 'owner@example.com')).token };
    };
    const lookup = async (api: ApiHarness, path: string) =>
      (await (await api.request(`/v1/redirects/lookup?path=${encodeURIComponent(path)}`)).json()).redirect;

    it('exports redirects and imports them: the same redirects, found by their paths, and from still unique', async () => {
      const source = await fresh();
      for (const json of [
        { from: '/old/', to: 'https://elsewhere.example/new?x=1', status: 308 },
        { from: '/Straße', to: '/street' },
      ]) {
        const res = await source.api.request('/v1/redirects', { method: 'POST', token: source.token, json });
        expect(res.status).toBe(201);
      }
      const before = (await (await source.api.request('/v1/redirects')).json()).items;
      const exported = await source.api.request('/v1/export', { token: source.token });
      expect(exported.status).toBe(200);
      const archive = new Uint8Array(await exported.arrayBuffer());
      const rows = (await gunzipLines(archive)).map((l) => JSON.parse(l)).filter((r) => r.table === 'redirects');
      expect(rows.map((r) => r.row.from)).toEqual(['/old', '/Straße']);

      // On workerd the new harness starts from the same, emptied, D1 database: the source was read first.
      const target = await fresh();
      const res = await importInto(target.api, target.token, archive);
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await res.json()).imported.rows).toMatchObject({ redirects: 2 });
      expect((await (await target.api.request('/v1/redirects')).json()).items).toEqual(before);
      expect(await lookup(target.api, '/old/')).toEqual(before.find((r: { from: string }) => r.from === '/old'));
      const taken = await target.api.request('/v1/redirects', {
        method: 'POST',
        token: target.token,
        json: { from: '/Straße/', to: '/x' },
      });
      expect(taken.status).toBe(409);
    });

    it("makes each redirect's key again from its from, never taking the archive's", async () => {
      const { api, token } = await fresh();
      const redirect = await archivedRedirect({ from: '/moved', fromHash: await sha256Hex('/elsewhere') });
      const res = await importInto(api, token, await craftArchive({ extra: { redirects: [redirect] } }));
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await lookup(api, '/moved')).toMatchObject({ id: redirect.id, to: '/new' });
      const taken = await api.request('/v1/redirects', { method: 'POST', token, json: { from: '/moved', to: '/x' } });
      expect(taken.status).toBe(409);
    });

    it('refuses redirect rows no request could have made, naming the line, and imports nothing', async () => {
      const { api, token } = await fresh();
      const cases: [string, Record<string, unknown>, RegExp][] = [
        ['a from with a trailing slash', { from: '/old/' }, /line 3: redirects\.from/],
        ['a from that is no path', { from: 'old' }, /line 3: redirects\.from/],
        ['a from with a query', { from: '/old?x=1' }, /line 3: redirects\.from/],
        ['a javascript: target', { to: 'javascript:alert(1)' }, /line 3: redirects\.to/],
        ['a protocol-relative target', { to: '//evil.example' }, /line 3: redirects\.to/],
        ['a status', { status: 200 }, /line 3: redirects\.status/],
        ['a loop', { from: '/same', to: '/same/' }, /line 3: redirects: to must lead somewhere other than from/],
        ['a key that is no SHA-256', { fromHash: 'x' }, /line 3: redirects\.fromHash/],
      ];
      for (const [what, over, message] of cases) {
        const body = await craftArchive({ extra: { redirects: [await archivedRedirect(over)] } });
        const res = await importInto(api, token, body);
        expect(res.status, what).toBe(400);
        expect((await errorOf(res)).message, what).toMatch(message);
        await expectNothingImported(api, token);
      }
      const twice = await craftArchive({ extra: { redirects: [await archivedRedirect(), await archivedRedirect()] } });
      const res = await importInto(api, token, twice);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toMatch(/line 4: redirects: another row has the same from/);
      await expectNothingImported(api, token);
    });
  });
}
