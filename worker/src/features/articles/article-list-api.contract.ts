import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner } from '../../../../test/support/api-flows.js';
import type { ApiHarness } from '../../../../test/support/api-harness.js';

interface Listed {
  id: string;
  title: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
}

const SORTS = ['createdAt', 'updatedAt', 'publishedAt', 'title'] as const;

/** The order docs/api.md promises, computed from the answers themselves: key, then id, nulls last. */
function expectedOrder(items: Listed[], sort: (typeof SORTS)[number], order: 'asc' | 'desc'): string[] {
  const sign = order === 'asc' ? 1 : -1;
  const key = (a: Listed): string | number | null =>
    sort === 'title' ? a.title.toLowerCase() : a[sort] === null ? null : Date.parse(a[sort] as string);
  const cmp = (x: string | number, y: string | number) => (x < y ? -1 : x > y ? 1 : 0);
  return [...items]
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      if (ka === null || kb === null) {
        if (ka !== kb) return ka === null ? 1 : -1;
      } else if (cmp(ka, kb) !== 0) return sign * cmp(ka, kb);
      return sign * cmp(a.id, b.id);
    })
    .map((a) => a.id);
}

/** `GET /v1/articles` search, filters and sorts (docs/api.md, Articles), paged through with every cursor. */
export function runArticleListApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`article list: search, filters, sort (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let siteId: string;
    let authorId: string;
    const ids: Record<string, string> = {};

    /** `token` null: the public. */
    const list = async (query: string, token: string | null = owner) => {
      const res = await api.request(`/v1/articles?${query}`, token ? { token } : {});
      expect(res.status, query).toBe(200);
      return (await res.json()) as { items: Listed[]; nextCursor: string | null };
    };
    const titles = async (query: string, token: string | null = owner) =>
      (await list(query, token)).items.map((a) => a.title).sort();
    /** Every page, following the cursors; no article twice, none left out. */
    async function walk(query: string, limit: number): Promise<Listed[]> {
      const seen: Listed[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(`${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.items.length).toBeLessThanOrEqual(limit);
        seen.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor && seen.length < 100);
      return seen;
    }

    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'owner@example.com')).token;
      const site = await api.request('/v1/sites', {
        method: 'POST',
        token: owner,
        json: { name: 'Blog', baseUrl: 'https://blog.example' },
      });
      siteId = (await site.json()).site.id;
      const author = await api.request('/v1/authors', {
        method: 'POST',
        token: owner,
        json: { name: 'Ada', slug: 'ada' },
      });
      authorId = (await author.json()).author.id;
      // Titles whose case-folded order is the same under every collation; two share a title but for case.
      const specs: [string, Record<string, unknown>][] = [
        ['alpha', { body: 'Growth was 100% this year' }],
        ['Bravo', { body: 'Growth was 100 percent', siteId }],
        ['charlie', { body: 'snake_case and camelCase', authorIds: [authorId] }],
        ['Delta', { body: 'nothing to see!', siteId, authorIds: [authorId] }],
        ['echo', { body: 'Some MIXED Case words' }],
        ['Echo', { body: 'the second echo' }],
        ['foxtrot', { body: '' }],
      ];
      for (const [title, json] of specs) {
        api.clock.advance(61_000);
        ids[title] = (await createArticle(api, owner, { title, ...json })).id;
      }
      // Published in an order of their own (and three never), edited in another.
      for (const title of ['Delta', 'alpha', 'echo', 'Bravo']) {
        api.clock.advance(61_000);
        await api.request(`/v1/articles/${ids[title]}/publish`, { method: 'POST', token: owner });
      }
      for (const title of ['Echo', 'foxtrot', 'alpha']) {
        api.clock.advance(61_000);
        await api.request(`/v1/articles/${ids[title]}`, { method: 'PATCH', token: owner, json: { body: `${title}!` } });
      }
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('searches title and body, literally, A–Z in either case', async () => {
      expect(await titles('q=ECHO')).toEqual(['Echo', 'echo']);
      expect(await titles('q=mixed%20case')).toEqual(['echo']);
      expect(await titles('q=growth')).toEqual(['Bravo']); // alpha's body was edited
      expect(await titles('q=100%25')).toEqual([]);
      expect(await titles('q=e_c')).toEqual(['charlie']); // `_` is not a wildcard: snake_case
      expect(await titles('q=%25')).toEqual([]);
      expect(await titles('q=see!')).toEqual(['Delta']);
      expect(await titles('q=!')).toEqual(['Delta', 'Echo', 'alpha', 'foxtrot']);
      expect(await titles('q=%20%20')).toHaveLength(7); // blank is no filter
      expect(await titles('q=nowhere')).toEqual([]);
    });

    it('filters by status, site and author together, and the public sees online ones only', async () => {
      expect(await titles('status=online')).toEqual(['Bravo', 'Delta', 'alpha', 'echo']);
      expect(await titles('status=offline')).toEqual(['Echo', 'charlie', 'foxtrot']);
      expect(await titles(`authorId=${authorId}`)).toEqual(['Delta', 'charlie']);
      expect(await titles(`authorId=${authorId}&status=offline`)).toEqual(['charlie']);
      expect(await titles(`siteId=${siteId}&authorId=${authorId}&q=see`)).toEqual(['Delta']);
      expect(await titles('authorId=0190a000-0000-7000-8000-000000000000')).toEqual([]);
      expect(await titles('q=echo', null)).toEqual(['echo']);
      expect(await titles('q=charlie&status=offline', null)).toEqual([]);
    });

    it('sorts by each key in both orders, and every cursor continues exactly where its page ended', async () => {
      const all = (await list('limit=100')).items;
      expect(all).toHaveLength(7);
      for (const sort of SORTS) {
        for (const order of ['asc', 'desc'] as const) {
          const want = expectedOrder(all, sort, order);
          const query = `sort=${sort}&order=${order}`;
          expect(
            (await list(`${query}&limit=100`)).items.map((a) => a.id),
            query,
          ).toEqual(want);
          for (const limit of [1, 2, 3]) {
            expect(
              (await walk(query, limit)).map((a) => a.id),
              `${query}&limit=${limit}`,
            ).toEqual(want);
          }
        }
      }
      // Spot checks of what the computed order means.
      const byTitle = (await list('sort=title&order=asc')).items.map((a) => a.title);
      expect(byTitle.slice(0, 4)).toEqual(['alpha', 'Bravo', 'charlie', 'Delta']);
      const byPublication = (await list('sort=publishedAt&order=desc')).items.map((a) => a.title);
      expect(byPublication.slice(0, 4)).toEqual(['Bravo', 'echo', 'alpha', 'Delta']);
      expect(byPublication.slice(4).sort()).toEqual(['Echo', 'charlie', 'foxtrot']);
      const byEdit = (await list('sort=updatedAt&order=desc&limit=3')).items.map((a) => a.title);
      expect(byEdit).toEqual(['alpha', 'foxtrot', 'Echo']);
    });

    it('pages filtered and sorted lists together', async () => {
      const want = ['Delta', 'alpha', 'echo', 'Bravo'];
      const walked = await walk('status=online&sort=publishedAt&order=asc', 1);
      expect(walked.map((a) => a.title)).toEqual(want);
    });

    it('refuses bad parameters and a cursor of another sort with 400', async () => {
      const first = await list('sort=title&limit=2');
      const legacy = await list('limit=2');
      const bad = [
        'sort=views',
        'order=up',
        'sort=title&sort=updatedAt',
        'q=a&q=b',
        `q=${'x'.repeat(49)}`,
        `q=${'%25'.repeat(25)}`, // 25 characters, 50 bytes once escaped
        'q=tab%09here',
        'authorId=nope',
        `sort=updatedAt&cursor=${first.nextCursor}`,
        `sort=title&order=asc&cursor=${first.nextCursor}`,
        `sort=title&cursor=${legacy.nextCursor}`,
        'cursor=bm90IGpzb24',
        `cursor=${btoa('["title","desc",7,"0190a000-0000-7000-8000-000000000000"]').replace(/=+$/, '')}`,
        `cursor=${'A'.repeat(1201)}`,
      ];
      for (const query of bad) {
        const res = await api.request(`/v1/articles?${query}`, { token: owner });
        expect(res.status, query).toBe(400);
        expect((await errorOf(res)).code, query).toBe('invalid_request');
      }
      const tooLong = await api.request(`/v1/articles?q=${'%25'.repeat(25)}`, { token: owner });
      expect((await errorOf(tooLong)).issues).toEqual([expect.objectContaining({ path: 'q' })]);
      // The same cursor with its own sort still works.
      expect((await list(`sort=title&limit=2&cursor=${first.nextCursor}`)).items).toHaveLength(2);
    });
  });
}
