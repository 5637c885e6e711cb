import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, registerOwner, registerPending } from '../../../support/api-flows.js';
import type { ApiHarness, SetupApi } from '../../../support/api-harness.js';
import { expectNothingImported, gunzipLines, gzipLines, importInto } from '../../../support/archives.js';

const UNKNOWN = '0190a000-0000-7000-8000-000000000000';

type Term = { id: string; name: string; slug: string; definition: string; createdAt: string; updatedAt: string };

/**
 * The glossary per docs/api.md#glossary, against every database (this suite
 * is its storage's proof as well: the repository is the catalogue rows
 * every catalogue shares, whose own suite runs on each dialect), and its
 * place in export archives (docs/backups.md).
 */
export function runGlossaryApiContract(name: string, setup: SetupApi) {
  describe(`glossary API (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'owner@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const post = (json: unknown, token = owner) => api.request('/v1/glossary', { method: 'POST', token, json });
    const patch = (id: string, json: unknown) =>
      api.request(`/v1/glossary/${id}`, { method: 'PATCH', token: owner, json });
    async function create(json: Record<string, unknown>): Promise<Term> {
      const res = await post(json);
      expect(res.status, JSON.stringify(json)).toBe(201);
      return (await res.json()).term;
    }
    const logged = async (action: string) =>
      (await (await api.request(`/v1/activity?action=${action}&limit=100`, { token: owner })).json()).items as {
        subjectType: string;
        subjectId: string;
        details: unknown;
      }[];

    it('adds (slug from the name when left out), reads, lists, changes and deletes a term; reads are public', async () => {
      const definition = 'An opinion piece,\nset opposite the editorial page.';
      const res = await post({ name: '  Op-ed  ', definition, evil: true });
      expect(res.status).toBe(201);
      const { term } = await res.json();
      expect(Object.keys(term).sort()).toEqual(['createdAt', 'definition', 'id', 'name', 'slug', 'updatedAt']);
      expect(term).toMatchObject({ name: 'Op-ed', slug: 'op-ed', definition });
      expect(term.updatedAt).toBe(term.createdAt);

      expect((await (await api.request(`/v1/glossary/${term.id}`)).json()).term).toEqual(term);
      expect((await (await api.request('/v1/glossary/slug/op-ed')).json()).term).toEqual(term);
      const second = await create({ name: 'Lede', slug: 'lede', definition: 'The opening of a story.' });
      const list = await (await api.request('/v1/glossary?limit=1')).json();
      expect(list.items).toEqual([second]);
      const next = await (await api.request(`/v1/glossary?limit=1&cursor=${list.nextCursor}`)).json();
      expect(next.items).toEqual([term]);

      // Renaming keeps the slug; the slug and the definition change only when given.
      const renamed = await patch(term.id, { name: 'Op-Ed' });
      expect(renamed.status).toBe(200);
      const changed = (await renamed.json()).term;
      expect(changed).toMatchObject({ name: 'Op-Ed', slug: 'op-ed', definition });
      expect(Date.parse(changed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(term.updatedAt));
      const redefined = (await (await patch(term.id, { definition: 'Opinion.', slug: 'oped' })).json()).term;
      expect(redefined).toMatchObject({ name: 'Op-Ed', slug: 'oped', definition: 'Opinion.' });
      expect((await (await patch(term.id, {})).json()).term).toEqual(redefined);

      expect(
        (await logged('term.create'))
          .map((e) => [e.subjectType, e.subjectId, e.details])
          .filter((e) => e[1] === term.id),
      ).toEqual([['term', term.id, { name: 'Op-ed', slug: 'op-ed' }]]);
      // Two changes logged; the empty PATCH changed nothing and is not.
      expect((await logged('term.update')).filter((e) => e.subjectId === term.id)).toHaveLength(2);

      expect((await api.request(`/v1/glossary/${term.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
      expect((await api.request(`/v1/glossary/${term.id}`)).status).toBe(404);
      expect((await logged('term.delete')).map((e) => e.subjectId)).toContain(term.id);
    });

    it('keeps slugs unique (409 conflict naming the slug), made or given, and changes nothing on a conflict', async () => {
      await create({ name: 'Byline', definition: 'Who wrote it.' });
      for (const json of [
        { name: 'Byline', definition: 'x' },
        { name: 'Other', slug: 'byline', definition: 'x' },
      ]) {
        const res = await post(json);
        expect(res.status, JSON.stringify(json)).toBe(409);
        const err = await errorOf(res);
        expect(err.code).toBe('conflict');
        expect(err.issues).toEqual([expect.objectContaining({ path: 'slug' })]);
      }
      const other = await create({ name: 'Dateline', definition: 'Where and when.' });
      expect((await patch(other.id, { slug: 'byline', definition: 'Changed?' })).status).toBe(409);
      expect((await (await api.request(`/v1/glossary/${other.id}`)).json()).term).toEqual(other);
    });

    it('validates names, slugs and definitions (400 naming the field)', async () => {
      const bad: Array<[Record<string, unknown>, string]> = [
        [{ definition: 'x' }, 'name'],
        [{ name: '   ', definition: 'x' }, 'name'],
        [{ name: 'x'.repeat(201), definition: 'x' }, 'name'],
        [{ name: 'ok' }, 'definition'],
        [{ name: 'ok', definition: '' }, 'definition'],
        [{ name: 'ok', definition: null }, 'definition'],
        [{ name: 'ok', definition: 'd'.repeat(5001) }, 'definition'],
        [{ name: 'ok', definition: 'nul\u0000' }, 'definition'],
        [{ name: 'ok', definition: 'x', slug: 'Upper' }, 'slug'],
        // Nothing in the name to make a slug from: the caller is asked for one.
        [{ name: '日本語', definition: 'x' }, 'slug'],
      ];
      for (const [json, path] of bad) {
        const res = await post(json);
        expect(res.status, JSON.stringify(json)).toBe(400);
        const err = await errorOf(res);
        expect(err.code).toBe('invalid_request');
        expect(err.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
      }
      const term = await create({ name: 'Kicker', definition: 'd'.repeat(5000) });
      expect(term.definition).toHaveLength(5000);
      expect((await patch(term.id, { definition: '' })).status).toBe(400);
      expect((await patch(term.id, { slug: 'Not Valid' })).status).toBe(400);
    });

    it('answers anonymous writes with 401 and unknown or malformed ids and slugs with a uniform 404', async () => {
      const term = await create({ name: 'Kept', definition: 'Still here.' });
      for (const [method, path, json] of [
        ['POST', '/v1/glossary', { name: 'x', definition: 'x' }],
        ['PATCH', `/v1/glossary/${term.id}`, { name: 'x' }],
        ['DELETE', `/v1/glossary/${term.id}`, undefined],
      ] as const) {
        const res = await api.request(path, json === undefined ? { method } : { method, json });
        expect(res.status, `${method} ${path}`).toBe(401);
      }
      expect((await (await api.request(`/v1/glossary/${term.id}`)).json()).term).toEqual(term);
      for (const id of [UNKNOWN, 'not-a-uuid']) {
        for (const [method, json] of [
          ['GET', undefined],
          ['PATCH', { name: 'x' }],
          ['DELETE', undefined],
        ] as const) {
          const res = await api.request(
            `/v1/glossary/${id}`,
            json === undefined ? { method, token: owner } : { method, token: owner, json },
          );
          expect(res.status, `${method} ${id}`).toBe(404);
          expect((await errorOf(res)).code).toBe('not_found');
        }
      }
      for (const slug of ['no-such', 'Kept']) expect((await api.request(`/v1/glossary/slug/${slug}`)).status).toBe(404);
    });

    // After every test of `api`: on Workers a second harness shares (and empties) the one D1 database.
    it('lets verified accounts and content:write keys write the glossary, not unverified registrants', async () => {
      const key = await api.request('/v1/api-keys', {
        method: 'POST',
        token: owner,
        json: { name: 'writer', scopes: ['content:write'] },
      });
      const { secret } = await key.json();
      expect((await post({ name: 'By key', definition: 'x' }, secret)).status).toBe(201);
      const other = await setup();
      try {
        const pending = await registerPending(other, 'pending@example.com');
        const res = await other.request('/v1/glossary', {
          method: 'POST',
          token: pending.token,
          json: { name: 'x', definition: 'x' },
        });
        expect(res.status).toBe(403);
        expect((await errorOf(res)).code).toBe('forbidden');
        expect((await (await other.request('/v1/glossary')).json()).items).toEqual([]);
      } finally {
        await other.cleanup();
      }
    });
    it('is exported and imported with the content, under the API’s own rules', async () => {
      // Harnesses of its own: on Workers each new one empties the one D1 database.
      const source = await setup();
      let term: Term;
      let archive: Uint8Array;
      try {
        const token = (await registerOwner(source, 'owner@example.com')).token;
        const res = await source.request('/v1/glossary', {
          method: 'POST',
          token,
          json: { name: 'Embargo', definition: 'Not to be published before a set time.' },
        });
        term = (await res.json()).term;
        const exported = await source.request('/v1/export', { token });
        expect(exported.status).toBe(200);
        archive = new Uint8Array(await exported.arrayBuffer());
      } finally {
        await source.cleanup();
      }
      const rows = (await gunzipLines(archive)).map((l) => JSON.parse(l)).filter((r) => r.table === 'glossaryTerms');
      expect(rows.map((r) => r.row)).toEqual([term]);

      const target = await setup();
      try {
        const token = (await registerOwner(target, 'owner@example.com')).token;
        // A term no request could have made (an empty definition, a slug of capitals) is refused, and the whole archive with it.
        const lines = await gunzipLines(archive);
        for (const bad of [{ definition: '' }, { slug: 'Not-A-Slug' }]) {
          const crafted = await gzipLines(
            lines.map((line) => {
              const record = JSON.parse(line);
              if (record.table !== 'glossaryTerms' || record.row.id !== term.id) return line;
              return JSON.stringify({ ...record, row: { ...record.row, ...bad } });
            }),
          );
          const refused = await importInto(target, token, crafted);
          expect(refused.status, JSON.stringify(bad)).toBe(400);
          expect((await errorOf(refused)).code).toBe('invalid_request');
          await expectNothingImported(target, token);
          expect((await (await target.request('/v1/glossary')).json()).items).toEqual([]);
        }
        const res = await importInto(target, token, archive);
        expect(res.status, await res.clone().text()).toBe(200);
        expect((await res.json()).imported.rows).toMatchObject({ glossaryTerms: expect.any(Number) });
        expect((await (await target.request(`/v1/glossary/${term.id}`)).json()).term).toEqual(term);
        // An installation with a glossary holds content: a second import is refused.
        const again = await importInto(target, token, archive);
        expect(again.status).toBe(409);
      } finally {
        await target.cleanup();
      }
    });
  });
}
