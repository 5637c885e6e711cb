import { describe, expect, it } from 'vitest';
import {
  ascendingIds,
  domainError,
  freshRepositories,
  HOSTILE_STRINGS,
  megabyteBody,
  newId,
  type SetupRepositories,
  sampleArticle,
  sampleImage,
} from '../../../support/db-contract.js';

/** ArticlesRepository, the same on D1, SQLite, MariaDB and PostgreSQL. */
export function runArticlesRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`ArticlesRepository contract: ${name}`, () => {
    const db = freshRepositories(setup);

    async function authors(n: number): Promise<string[]> {
      const ids = Array.from({ length: n }, newId);
      for (const id of ids) await db.fixtures.insertAuthor(id);
      return ids;
    }

    it('creates an article and reads it back unchanged, authors in the given order', async () => {
      const siteId = newId();
      await db.fixtures.insertSite(siteId);
      const [a, b, c] = await authors(3);
      const input = sampleArticle({ siteId, authorIds: [c!, a!, b!], format: 'html' });
      await db.repos.articles.create(input);
      expect(await db.repos.articles.findById(input.id)).toEqual(input);
    });

    it('round-trips hostile titles and bodies exactly', async () => {
      for (const text of HOSTILE_STRINGS) {
        const input = sampleArticle({ title: text, body: `${text}\n\n${text}` });
        await db.repos.articles.create(input);
        const found = await db.repos.articles.findById(input.id);
        expect(found?.title).toBe(text);
        expect(found?.body).toBe(`${text}\n\n${text}`);
      }
    });

    it('round-trips a 1 MB body and an empty body', async () => {
      const big = sampleArticle({ body: megabyteBody() });
      const empty = sampleArticle({ body: '' });
      await db.repos.articles.create(big);
      await db.repos.articles.create(empty);
      const found = await db.repos.articles.findById(big.id);
      expect(found?.body.length).toBe(1024 * 1024);
      expect(found?.body === big.body).toBe(true);
      expect((await db.repos.articles.findById(empty.id))?.body).toBe('');
    });

    it('refuses an unknown site or author with a clear invalid_request, storing nothing', async () => {
      const missingSite = newId();
      const bad = sampleArticle({ siteId: missingSite });
      await expect(db.repos.articles.create(bad)).rejects.toMatchObject({
        ...domainError('invalid_request'),
        message: expect.stringContaining(missingSite),
      });
      expect(await db.repos.articles.findById(bad.id)).toBeNull();

      const [known] = await authors(1);
      const missingAuthor = newId();
      const bad2 = sampleArticle({ authorIds: [known!, missingAuthor] });
      await expect(db.repos.articles.create(bad2)).rejects.toMatchObject({
        ...domainError('invalid_request'),
        message: expect.stringContaining(missingAuthor),
      });
      expect(await db.repos.articles.findById(bad2.id)).toBeNull();
    });

    it('refuses repeated or malformed author ids', async () => {
      const [a] = await authors(1);
      await expect(db.repos.articles.create(sampleArticle({ authorIds: [a!, a!] }))).rejects.toMatchObject(
        domainError('invalid_request'),
      );
      await expect(db.repos.articles.create(sampleArticle({ authorIds: ['nope'] }))).rejects.toMatchObject(
        domainError('invalid_request'),
      );
    });

    it('stores up to 50 authors in order', async () => {
      const ids = await authors(50);
      const input = sampleArticle({ authorIds: [...ids].reverse() });
      await db.repos.articles.create(input);
      expect((await db.repos.articles.findById(input.id))?.authorIds).toEqual([...ids].reverse());
    });

    it('returns null for unknown and malformed ids', async () => {
      expect(await db.repos.articles.findById(newId())).toBeNull();
      expect(await db.repos.articles.findById('1 or 1=1')).toBeNull();
    });

    it('lists newest first with keyset pages and exact boundaries', async () => {
      const ids = ascendingIds(7);
      for (const id of ids) await db.repos.articles.create(sampleArticle({ id }));
      const newestFirst = [...ids].reverse();

      const page1 = await db.repos.articles.list({ limit: 3 });
      expect(page1.map((a) => a.id)).toEqual(newestFirst.slice(0, 3));
      const page2 = await db.repos.articles.list({ limit: 3, beforeId: page1[2]!.id });
      expect(page2.map((a) => a.id)).toEqual(newestFirst.slice(3, 6));
      const page3 = await db.repos.articles.list({ limit: 3, beforeId: page2[2]!.id });
      expect(page3.map((a) => a.id)).toEqual(newestFirst.slice(6));
      expect(await db.repos.articles.list({ limit: 3, beforeId: ids[0]! })).toEqual([]);
      // The cursor itself is excluded; an id between rows works too.
      expect((await db.repos.articles.list({ limit: 100, beforeId: ids[3]! })).map((a) => a.id)).toEqual(
        newestFirst.slice(4),
      );
      expect(await db.repos.articles.list({ limit: 1, beforeId: 'ffffffff-ffff-7fff-bfff-ffffffffffff' })).toHaveLength(
        1,
      );
    });

    it('refuses a malformed cursor or limit instead of listing everything', async () => {
      await db.repos.articles.create(sampleArticle());
      await expect(db.repos.articles.list({ limit: 10, beforeId: "' or 1=1 --" })).rejects.toMatchObject(
        domainError('invalid_request'),
      );
      await expect(db.repos.articles.list({ limit: 0 })).rejects.toMatchObject(domainError('invalid_request'));
      await expect(db.repos.articles.list({ limit: Number.NaN })).rejects.toMatchObject(domainError('invalid_request'));
    });

    it('filters by status and site, with authors filled in', async () => {
      const siteId = newId();
      await db.fixtures.insertSite(siteId);
      const [a, b] = await authors(2);
      const online = sampleArticle({ status: 'online', siteId, authorIds: [b!, a!] });
      const offline = sampleArticle({ siteId });
      const elsewhere = sampleArticle({ status: 'online', authorIds: [a!] });
      for (const article of [online, offline, elsewhere]) await db.repos.articles.create(article);

      const onlineList = await db.repos.articles.list({ limit: 10, status: 'online' });
      expect(onlineList.map((x) => x.id)).toEqual([elsewhere.id, online.id]);
      expect(onlineList[1]?.authorIds).toEqual([b, a]);
      const siteList = await db.repos.articles.list({ limit: 10, siteId });
      expect(siteList.map((x) => x.id)).toEqual([offline.id, online.id]);
      const both = await db.repos.articles.list({ limit: 10, siteId, status: 'offline' });
      expect(both.map((x) => x.id)).toEqual([offline.id]);
      expect(await db.repos.articles.list({ limit: 10, siteId: newId() })).toEqual([]);
    });

    it('updates only the given fields and bumps updatedAt', async () => {
      const [a] = await authors(1);
      const input = sampleArticle({ authorIds: [a!] });
      await db.repos.articles.create(input);
      const now = new Date('2026-11-26T08:00:00.250Z');
      const updated = await db.repos.articles.update(input.id, { title: HOSTILE_STRINGS[0] }, now);
      expect(updated).toEqual({ ...input, title: HOSTILE_STRINGS[0], updatedAt: now, version: 2 });
      expect(await db.repos.articles.findById(input.id)).toEqual(updated);
    });

    it('replaces the author list in order, clears it, and sets and clears the site', async () => {
      const siteId = newId();
      await db.fixtures.insertSite(siteId);
      const [a, b, c] = await authors(3);
      const input = sampleArticle({ authorIds: [a!, b!] });
      await db.repos.articles.create(input);
      const now = new Date();

      expect(await db.repos.articles.update(input.id, { authorIds: [c!, b!, a!], siteId }, now)).toMatchObject({
        authorIds: [c, b, a],
        siteId,
      });
      expect(await db.repos.articles.update(input.id, { authorIds: [], siteId: null }, now)).toMatchObject({
        authorIds: [],
        siteId: null,
      });
    });

    it('leaves the article untouched when an update names an unknown author or site', async () => {
      const [a, b] = await authors(2);
      const input = sampleArticle({ authorIds: [a!, b!] });
      await db.repos.articles.create(input);
      const missing = newId();
      await expect(
        db.repos.articles.update(input.id, { title: 'changed', authorIds: [b!, missing] }, new Date()),
      ).rejects.toMatchObject({ ...domainError('invalid_request'), message: expect.stringContaining(missing) });
      await expect(db.repos.articles.update(input.id, { siteId: missing }, new Date())).rejects.toMatchObject(
        domainError('invalid_request'),
      );
      expect(await db.repos.articles.findById(input.id)).toEqual(input);
    });

    it('returns null when updating an unknown article', async () => {
      const [a] = await authors(1);
      expect(await db.repos.articles.update(newId(), { title: 'x' }, new Date())).toBeNull();
      expect(await db.repos.articles.update(newId(), { authorIds: [a!] }, new Date())).toBeNull();
      expect(await db.repos.articles.update('bad', { title: 'x' }, new Date())).toBeNull();
    });

    it('sets publishedAt on the first publication only', async () => {
      const input = sampleArticle();
      await db.repos.articles.create(input);
      const first = new Date('2026-11-26T09:00:00.111Z');
      const later = new Date('2026-11-27T09:00:00.222Z');

      expect(await db.repos.articles.setStatus(input.id, 'online', first)).toMatchObject({
        status: 'online',
        publishedAt: first,
        updatedAt: first,
      });
      expect(await db.repos.articles.setStatus(input.id, 'offline', later)).toMatchObject({
        status: 'offline',
        publishedAt: first,
        updatedAt: later,
      });
      expect(await db.repos.articles.setStatus(input.id, 'online', later)).toMatchObject({
        status: 'online',
        publishedAt: first,
      });
      expect(await db.repos.articles.setStatus(newId(), 'online', later)).toBeNull();
    });

    it('deletes an article with its author links and images, returning the images', async () => {
      const [a] = await authors(1);
      const article = sampleArticle({ authorIds: [a!] });
      const other = sampleArticle();
      await db.repos.articles.create(article);
      await db.repos.articles.create(other);
      const [i1, i2] = ascendingIds(2);
      const images = [sampleImage(article.id, { id: i1 }), sampleImage(article.id, { id: i2 })];
      for (const image of images) await db.repos.images.create(image);
      const kept = sampleImage(other.id);
      await db.repos.images.create(kept);

      const removed = await db.repos.articles.delete(article.id);
      expect(removed).toEqual(images);
      expect(await db.repos.articles.findById(article.id)).toBeNull();
      expect(await db.repos.images.findByFilename(images[0]!.filename)).toBeNull();
      expect(await db.repos.images.findById(kept.id)).toEqual(kept);
      expect(await db.repos.articles.delete(article.id)).toBeNull();
      expect(await db.repos.articles.delete('bad')).toBeNull();
    });

    it('writes only at a named version: a stale write changes nothing and names the current article', async () => {
      const [a, b] = await authors(2);
      const article = sampleArticle({ authorIds: [a!] });
      await db.repos.articles.create(article);
      const image = sampleImage(article.id);
      await db.repos.images.create(image);
      const now = new Date('2026-11-26T10:00:00.000Z');
      const v2 = await db.repos.articles.update(article.id, { title: 'second' }, now, [1]);
      expect(v2).toMatchObject({ title: 'second', version: 2 });
      const stale = { name: 'StaleArticle', code: 'conflict', current: { ...v2 } };
      await expect(
        db.repos.articles.update(article.id, { title: 'x', authorIds: [b!] }, now, [1]),
      ).rejects.toMatchObject(stale);
      await expect(db.repos.articles.update(article.id, { body: 'x' }, now, [])).rejects.toMatchObject(stale);
      await expect(db.repos.articles.setStatus(article.id, 'online', now, [1, 3])).rejects.toMatchObject(stale);
      await expect(db.repos.articles.delete(article.id, [1])).rejects.toMatchObject(stale);
      expect(await db.repos.articles.findById(article.id)).toEqual(v2);
      expect(await db.repos.images.findById(image.id)).toEqual(image);
      // Unknown stays null, conditional or not.
      expect(await db.repos.articles.update(newId(), { title: 'x' }, now, [1])).toBeNull();
      expect(await db.repos.articles.delete(newId(), [1])).toBeNull();

      const v3 = await db.repos.articles.update(article.id, { authorIds: [b!, a!] }, now, [2, 7]);
      expect(v3).toMatchObject({ authorIds: [b, a], version: 3 });
      expect(await db.repos.articles.setStatus(article.id, 'online', now, [3])).toMatchObject({ version: 4 });
      expect(await db.repos.articles.delete(article.id, [4])).toEqual([image]);
      expect(await db.repos.articles.findById(article.id)).toBeNull();
    });

    it('deletes an article without images', async () => {
      const article = sampleArticle();
      await db.repos.articles.create(article);
      expect(await db.repos.articles.delete(article.id)).toEqual([]);
      expect(await db.repos.articles.findById(article.id)).toBeNull();
    });
  });
}
