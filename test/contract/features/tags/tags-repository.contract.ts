import { describe, expect, it } from 'vitest';
import type { Tag } from '../../../../worker/src/features/tags/tags.port.js';
import {
  ascendingIds,
  domainError,
  expectKeysetPages,
  freshRepositories,
  HOSTILE_STRINGS,
  newId,
  type SetupRepositories,
  sampleArticle,
} from '../../../support/db-contract.js';

const CREATED = new Date('2026-11-26T09:00:00.123Z');
const LATER = new Date('2026-11-26T10:30:00.456Z');

let serial = 0;
export function sampleTag(overrides: Partial<Tag> = {}): Tag {
  serial += 1;
  return { id: newId(), name: 'A tag', slug: `tag-${serial}`, createdAt: CREATED, updatedAt: CREATED, ...overrides };
}

/** TagsRepository and the article ↔ tag links, the same on D1, SQLite, MariaDB and PostgreSQL. */
export function runTagsRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`TagsRepository contract: ${name}`, () => {
    const db = freshRepositories(setup);

    it('creates a tag and reads every field back unchanged; unknown and malformed ids find nothing', async () => {
      const tag = sampleTag({ name: HOSTILE_STRINGS[3]! });
      await db.repos.tags.create(tag);
      expect(await db.repos.tags.findById(tag.id)).toEqual(tag);
      expect(await db.repos.tags.findById(tag.id.toUpperCase())).toEqual(tag);
      expect(await db.repos.tags.findById(newId())).toBeNull();
      expect(await db.repos.tags.findById("' or 1=1 --")).toBeNull();
    });

    it('finds a tag by its slug, exactly as written', async () => {
      const tag = sampleTag({ slug: 'find-me' });
      await db.repos.tags.create(tag);
      expect(await db.repos.tags.findBySlug('find-me')).toEqual(tag);
      expect(await db.repos.tags.findBySlug('FIND-ME')).toBeNull();
      expect(await db.repos.tags.findBySlug('find')).toBeNull();
      expect(await db.repos.tags.findBySlug("' or 1=1 --")).toBeNull();
    });

    it('refuses a slug in use (conflict, naming the slug), NUL characters and malformed ids', async () => {
      await db.repos.tags.create(sampleTag({ slug: 'news' }));
      const clash = db.repos.tags.create(sampleTag({ slug: 'news' }));
      await expect(clash).rejects.toMatchObject({ ...domainError('conflict'), issues: [{ path: 'slug' }] });
      await expect(db.repos.tags.create(sampleTag({ name: 'a\u0000b' }))).rejects.toMatchObject(
        domainError('invalid_request'),
      );
      await expect(db.repos.tags.create(sampleTag({ id: 'nope' }))).rejects.toMatchObject(
        domainError('invalid_request'),
      );
      expect((await db.repos.tags.list({ limit: 10 })).map((t) => t.slug)).toEqual(['news']);
    });

    it('lists newest first, keyset paged', async () => {
      await expectKeysetPages(db.repos.tags, (id) => sampleTag({ id }));
    });

    it('updates only the given fields and bumps updatedAt; a taken slug is a conflict; unknown ids give null', async () => {
      const tag = sampleTag({ slug: 'one' });
      const other = sampleTag({ slug: 'two' });
      await db.repos.tags.create(tag);
      await db.repos.tags.create(other);
      const renamed = await db.repos.tags.update(tag.id, { name: 'Renamed' }, LATER);
      expect(renamed).toEqual({ ...tag, name: 'Renamed', updatedAt: LATER });
      const moved = await db.repos.tags.update(tag.id, { slug: 'uno' }, LATER);
      expect(moved).toEqual({ ...renamed, slug: 'uno' });
      await expect(db.repos.tags.update(tag.id, { slug: 'two' }, LATER)).rejects.toMatchObject(domainError('conflict'));
      expect(await db.repos.tags.findById(tag.id)).toEqual(moved);
      expect(await db.repos.tags.update(newId(), { name: 'x' }, LATER)).toBeNull();
      expect(await db.repos.tags.update('malformed', { name: 'x' }, LATER)).toBeNull();
    });

    it('reads an article with its tags, names and slugs exact, in its order: by id, by slug and in a list', async () => {
      // Names a separator or an escape could break, and a tag renamed after it was linked.
      const tags = HOSTILE_STRINGS.map((name) => sampleTag({ name }));
      for (const t of tags) await db.repos.tags.create(t);
      const order = [...tags].reverse().map((t) => t.id);
      const article = sampleArticle({ tagIds: order });
      await db.repos.articles.create(article);
      await db.repos.tags.update(tags[0]!.id, { name: 'Renamed, after: "linking"' }, LATER);
      const refs = order.map((id) => {
        const t = tags.find((tag) => tag.id === id)!;
        return { id, name: id === tags[0]!.id ? 'Renamed, after: "linking"' : t.name, slug: t.slug };
      });
      const byId = await db.repos.articles.findForRead(article.id);
      expect(byId?.tags).toEqual(refs);
      expect(byId?.article.tagIds).toEqual(order);
      expect((await db.repos.articles.findBySlug(article.slug)).map((f) => f.tags)).toEqual([refs]);
      const listed = await db.repos.articles.listForRead({ tags: [tags[2]!.slug], limit: 5 });
      expect(listed.map((f) => f.tags)).toEqual([refs]);
      const untagged = sampleArticle();
      await db.repos.articles.create(untagged);
      expect((await db.repos.articles.findForRead(untagged.id))?.tags).toEqual([]);
    });

    it('keeps an article’s tags in the given order, replaces them on update, and refuses unknown or repeated ones', async () => {
      const [a, b, c] = [sampleTag(), sampleTag(), sampleTag()];
      for (const t of [a, b, c]) await db.repos.tags.create(t);
      const article = sampleArticle({ tagIds: [c.id, a.id, b.id] });
      await db.repos.articles.create(article);
      expect((await db.repos.articles.findById(article.id))?.tagIds).toEqual([c.id, a.id, b.id]);
      await db.repos.articles.update(article.id, { tagIds: [b.id, c.id] }, LATER);
      expect((await db.repos.articles.findById(article.id))?.tagIds).toEqual([b.id, c.id]);

      const unknown = newId();
      const refusal = db.repos.articles.update(article.id, { tagIds: [a.id, unknown] }, LATER);
      await expect(refusal).rejects.toMatchObject({
        ...domainError('invalid_request'),
        issues: [{ path: 'tagIds.1', message: `tag ${unknown} does not exist` }],
      });
      const fresh = sampleArticle({ tagIds: [unknown] });
      await expect(db.repos.articles.create(fresh)).rejects.toMatchObject(domainError('invalid_request'));
      expect(await db.repos.articles.findById(fresh.id)).toBeNull();
      await expect(db.repos.articles.update(article.id, { tagIds: [a.id, a.id] }, LATER)).rejects.toMatchObject(
        domainError('invalid_request'),
      );
      // Nothing half-written: the refused updates left the links as they were.
      expect((await db.repos.articles.findById(article.id))?.tagIds).toEqual([b.id, c.id]);
    });

    it('changes an article’s tags only at a named version (If-Match): a stale write leaves them as they were', async () => {
      const [a, b, c] = [sampleTag(), sampleTag(), sampleTag()];
      for (const t of [a, b, c]) await db.repos.tags.create(t);
      const article = sampleArticle({ tagIds: [a.id] });
      await db.repos.articles.create(article);
      const v2 = await db.repos.articles.update(article.id, { tagIds: [b.id, a.id] }, LATER, [1]);
      expect(v2).toMatchObject({ tagIds: [b.id, a.id], version: 2 });
      await expect(db.repos.articles.update(article.id, { tagIds: [c.id] }, LATER, [1])).rejects.toMatchObject({
        name: 'StaleArticle',
        code: 'conflict',
      });
      expect((await db.repos.articles.findById(article.id))?.tagIds).toEqual([b.id, a.id]);
      // Authors and tags together, at the current version.
      const v3 = await db.repos.articles.update(article.id, { tagIds: [c.id], authorIds: [] }, LATER, [2]);
      expect(v3).toMatchObject({ tagIds: [c.id], version: 3 });
      await expect(db.repos.articles.update(article.id, { tagIds: [newId()] }, LATER, [3])).rejects.toMatchObject(
        domainError('invalid_request'),
      );
      expect(await db.repos.articles.findById(article.id)).toMatchObject({ tagIds: [c.id], version: 3 });
    });

    it('reads tags by id, many at once, leaving unknown ids out, and one article’s in its order', async () => {
      const tags = Array.from({ length: 120 }, () => sampleTag());
      for (const t of tags) await db.repos.tags.create(t);
      const refs = await db.repos.tags.refsByIds([...tags.map((t) => t.id), newId(), 'malformed', tags[0]!.id]);
      expect(refs.size).toBe(120);
      expect(refs.get(tags[7]!.id)).toEqual({ id: tags[7]!.id, name: tags[7]!.name, slug: tags[7]!.slug });
      expect(await db.repos.tags.refsByIds([])).toEqual(new Map());
      const article = sampleArticle({ tagIds: [tags[5]!.id, tags[2]!.id] });
      await db.repos.articles.create(article);
      expect(await db.repos.tags.refsOfArticle(article.id.toUpperCase())).toEqual([
        { id: tags[5]!.id, name: tags[5]!.name, slug: tags[5]!.slug },
        { id: tags[2]!.id, name: tags[2]!.name, slug: tags[2]!.slug },
      ]);
      expect(await db.repos.tags.refsOfArticle('malformed')).toEqual([]);
      // The most an article may carry, read back in order with the article itself (positions past 9 sort as numbers).
      const fifty = tags
        .slice(0, 50)
        .map((t) => t.id)
        .reverse();
      const many = sampleArticle({ tagIds: fifty });
      await db.repos.articles.create(many);
      expect((await db.repos.articles.findById(many.id))?.tagIds).toEqual(fifty);
    });

    it('lists only the articles that carry a tag (or all of several), by slug', async () => {
      const [news, sport] = [sampleTag({ slug: 'news' }), sampleTag({ slug: 'sport' })];
      await db.repos.tags.create(news);
      await db.repos.tags.create(sport);
      const [first, second, third] = ascendingIds(3);
      await db.repos.articles.create(sampleArticle({ id: first!, tagIds: [news.id] }));
      await db.repos.articles.create(sampleArticle({ id: second!, tagIds: [sport.id, news.id], status: 'online' }));
      await db.repos.articles.create(sampleArticle({ id: third!, tagIds: [sport.id] }));
      const ids = async (query: { tags?: string[]; status?: 'online'; beforeId?: string; limit?: number }) =>
        (await db.repos.articles.list({ limit: 10, ...query })).map((a) => a.id);
      expect(await ids({ tags: ['news'] })).toEqual([second, first]);
      expect(await ids({ tags: ['sport'] })).toEqual([third, second]);
      expect(await ids({ tags: ['news', 'sport'] })).toEqual([second]);
      expect(await ids({ tags: ['news', 'sport', 'nothing'] })).toEqual([]);
      expect(await ids({ tags: ['news'], status: 'online' })).toEqual([second]);
      expect(await ids({ tags: ['news'], beforeId: second! })).toEqual([first]);
      expect(await ids({ tags: ['news'], limit: 1 })).toEqual([second]);
      expect(await ids({ tags: ['nothing'] })).toEqual([]);
      expect(await db.repos.articles.count({ tags: ['news'] })).toBe(2);
      expect(await db.repos.articles.count({ tags: ['news', 'sport'] })).toBe(1);
      expect((await db.repos.articles.list({ limit: 10, tags: ['sport'] })).map((a) => a.tagIds)).toEqual([
        [sport.id],
        [sport.id, news.id],
      ]);
    });

    it('deleting a tag takes it off every article; deleting an article keeps its tags', async () => {
      const [keep, drop] = [sampleTag(), sampleTag()];
      await db.repos.tags.create(keep);
      await db.repos.tags.create(drop);
      const article = sampleArticle({ tagIds: [drop.id, keep.id] });
      const other = sampleArticle({ tagIds: [drop.id] });
      await db.repos.articles.create(article);
      await db.repos.articles.create(other);
      expect(await db.repos.tags.delete(drop.id)).toBe(true);
      expect(await db.repos.tags.findById(drop.id)).toBeNull();
      expect((await db.repos.articles.findById(article.id))?.tagIds).toEqual([keep.id]);
      expect((await db.repos.articles.findById(other.id))?.tagIds).toEqual([]);
      expect(await db.repos.tags.delete(drop.id)).toBe(false);
      expect(await db.repos.tags.delete('malformed')).toBe(false);

      expect(await db.repos.articles.delete(article.id)).toEqual([]);
      expect(await db.repos.tags.findById(keep.id)).toEqual(keep);
      // The tag is free of links again: it can go.
      expect(await db.repos.tags.delete(keep.id)).toBe(true);
    });
  });
}
