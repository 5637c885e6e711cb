import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';

interface Listed {
  id: string;
  title: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  [field: string]: unknown;
}

/** The same instant written with a +02:00 offset. */
const plusTwoHours = (iso: string) => `${new Date(Date.parse(iso) + 7_200_000).toISOString().slice(0, 23)}+02:00`;

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
    let bob: Record<string, unknown>;
    const ids: Record<string, string> = {};

    /** `token` null: the public. */
    const list = async (query: string, token: string | null = owner) => {
      const res = await api.request(`/v1/articles?${query}`, token ? { token } : {});
      expect(res.status, query).toBe(200);
      return (await res.json()) as { items: Listed[]; nextCursor: string | null; total: number };
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
      const second = await api.request('/v1/authors', {
        method: 'POST',
        token: owner,
        json: { name: 'Bob', slug: 'bob', bio: 'Writes too', avatarUrl: 'https://cdn.example/bob.png' },
      });
      bob = (await second.json()).author;
      const tagId = async (slug: string) =>
        (await (await api.request('/v1/tags', { method: 'POST', token: owner, json: { name: slug, slug } })).json()).tag
          .id as string;
      const [news, sport] = [await tagId('news'), await tagId('sport')];
      // Titles whose case-folded order is the same under every collation; two share a title but for case.
      const specs: [string, Record<string, unknown>][] = [
        ['alpha', { body: 'Growth was 100% this year', tagIds: [news] }],
        ['Bravo', { body: 'Growth was 100 percent', siteId, tagIds: [news, sport] }],
        ['charlie', { body: 'snake_case and camelCase', authorIds: [authorId] }],
        ['Delta', { body: 'nothing to see!', siteId, authorIds: [bob.id, authorId], tagIds: [sport, news] }],
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
    it('filters by several tags (all of them), an author slug and publication time, and counts every match', async () => {
      expect(await titles('tag=news')).toEqual(['Bravo', 'Delta', 'alpha']);
      expect(await titles('tag=news&tag=sport')).toEqual(['Bravo', 'Delta']);
      expect(await titles('tag=sport&tag=news&tag=news', null)).toEqual(['Bravo', 'Delta']);
      expect(await titles('author=ada')).toEqual(['Delta', 'charlie']);
      expect(await titles('author=bob&tag=sport')).toEqual(['Delta']);
      expect(await titles(`author=ada&authorId=${authorId}&status=offline`)).toEqual(['charlie']);
      expect(await titles('author=nobody')).toEqual([]);
      // Published Delta, alpha, echo, Bravo in that order; after is inclusive, before exclusive.
      const at = (await list('status=online&sort=publishedAt&order=asc')).items.map((a) => a.publishedAt as string);
      expect(await titles(`publishedAfter=${at[1]}`)).toEqual(['Bravo', 'alpha', 'echo']);
      expect(await titles(`publishedBefore=${at[1]}`)).toEqual(['Delta']);
      expect(await titles(`publishedAfter=${at[1]}&publishedBefore=${at[3]}&tag=news`)).toEqual(['alpha']);
      expect(await titles(`publishedAfter=${encodeURIComponent(plusTwoHours(at[1]!))}`)).toEqual([
        'Bravo',
        'alpha',
        'echo',
      ]);
      expect(await titles('publishedAfter=2000-01-01')).toHaveLength(4); // never published: in no range
      expect(await titles('publishedBefore=2000-01-01&publishedAfter=1999-01-01')).toEqual([]);
      // The total counts every match, whatever the page; the cursor walks the filtered order.
      const first = await list('tag=news&limit=1');
      expect([first.items.length, first.total]).toEqual([1, 3]);
      expect((await list('tag=news&tag=sport', null)).total).toBe(2);
      expect((await list('limit=1', null)).total).toBe(4);
      expect((await list(`limit=1&publishedAfter=${at[1]}&author=bob`)).total).toBe(0);
      const walked = await walk(`tag=news&publishedAfter=${at[0]}&sort=publishedAt&order=asc`, 1);
      expect(walked.map((a) => a.title)).toEqual(['Delta', 'alpha', 'Bravo']);
    });

    it('pages by number in the order cursors follow, with the same total; page and cursor together are a 400', async () => {
      for (const query of ['status=online', 'sort=title&order=asc', 'sort=publishedAt']) {
        const all = (await list(`${query}&limit=100`)).items.map((a) => a.id);
        for (const page of [1, 2, 3, 4, 5]) {
          const got = await list(`${query}&limit=2&page=${page}`);
          expect(
            got.items.map((a) => a.id),
            `${query} page ${page}`,
          ).toEqual(all.slice((page - 1) * 2, page * 2));
          expect(got.total).toBe(all.length);
        }
        // A numbered page's cursor goes on from its last item.
        const second = await list(`${query}&limit=1&page=2`);
        expect((await list(`${query}&limit=2&cursor=${second.nextCursor}`)).items.map((a) => a.id)).toEqual(
          all.slice(2, 4),
        );
      }
      const cursor = (await list('limit=2')).nextCursor;
      for (const query of ['page=0', 'page=x', 'page=1&page=2', 'page=10000', `page=2&cursor=${cursor}`]) {
        const res = await api.request(`/v1/articles?limit=2&${query}`, { token: owner });
        expect(res.status, query).toBe(400);
        expect((await errorOf(res)).issues, query).toEqual([expect.objectContaining({ path: 'page' })]);
      }
    });

    it('embeds the credited authors in credit order with include=authors, and trims items to fields', async () => {
      const ada = { id: authorId, name: 'Ada', slug: 'ada', bio: null, avatarUrl: null };
      const byline = {
        id: bob.id,
        name: 'Bob',
        slug: 'bob',
        bio: 'Writes too',
        avatarUrl: 'https://cdn.example/bob.png',
      };
      const items = (await list(`include=authors&authorId=${authorId}`)).items;
      expect(items.map((a) => [a.title, a.authors, a.authorIds])).toEqual([
        ['Delta', [byline, ada], [bob.id, authorId]],
        ['charlie', [ada], [authorId]],
      ]);
      expect((await list('include=authors&q=alpha')).items[0]?.authors).toEqual([]);
      expect((await list('limit=1')).items[0]).not.toHaveProperty('authors');
      const both = (await list('include=html,authors&author=bob')).items[0]!;
      expect([typeof both.html, both.authors]).toEqual(['string', [byline, ada]]);

      const trimmed = await list('fields=title,slug&limit=100');
      expect(trimmed.items).toHaveLength(7);
      for (const item of trimmed.items) expect(Object.keys(item).sort()).toEqual(['id', 'slug', 'title']);
      // Naming html or authors includes them.
      const named = (await list('fields=authors,html,title&author=bob')).items[0]!;
      expect(Object.keys(named).sort()).toEqual(['authors', 'html', 'id', 'title']);
      expect(named.authors).toEqual([byline, ada]);
      for (const query of [
        'fields=nope',
        'fields=title,,slug',
        'fields=',
        'fields=id&fields=title',
        'include=adjacent',
      ]) {
        const res = await api.request(`/v1/articles?${query}`, { token: owner });
        expect(res.status, query).toBe(400);
        expect((await errorOf(res)).code, query).toBe('invalid_request');
      }
    });

    it('filters the articles waiting for a scheduled publication with scheduled=true (false: the others)', async () => {
      const publishAt = new Date(api.clock.now().getTime() + 86_400_000).toISOString();
      for (const title of ['charlie', 'foxtrot']) {
        const res = await api.request(`/v1/articles/${ids[title]}/schedule`, {
          method: 'POST',
          token: owner,
          json: { publishAt },
        });
        expect(res.status, title).toBe(200);
      }
      const scheduled = await list('scheduled=true');
      expect(scheduled.items.map((a) => a.title).sort()).toEqual(['charlie', 'foxtrot']);
      expect(scheduled.total).toBe(2);
      expect(scheduled.items.every((a) => a.status === 'offline' && a.scheduledAt === publishAt)).toBe(true);
      expect(await titles(`scheduled=true&authorId=${authorId}`)).toEqual(['charlie']);
      expect(await titles('scheduled=true&sort=title&order=asc&limit=1&page=2')).toEqual(['foxtrot']);
      expect(await titles('scheduled=false&status=offline')).toEqual(['Echo']);
      expect(await titles('scheduled=false')).toHaveLength(5);
      // The public sees online articles only: none of them waits for a publication.
      expect(await titles('scheduled=true', null)).toEqual([]);
      for (const query of ['scheduled=yes', 'scheduled=', 'scheduled=true&scheduled=false']) {
        const res = await api.request(`/v1/articles?${query}`, { token: owner });
        expect(res.status, query).toBe(400);
        expect((await errorOf(res)).issues, query).toEqual([expect.objectContaining({ path: 'scheduled' })]);
      }
      // Published (by hand here), an article waits no more.
      await api.request(`/v1/articles/${ids.charlie}/publish`, { method: 'POST', token: owner });
      expect(await titles('scheduled=true')).toEqual(['foxtrot']);
    });
  });
}
