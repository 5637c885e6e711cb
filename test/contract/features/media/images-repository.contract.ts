import { describe, expect, it } from 'vitest';
import {
  ascendingIds,
  domainError,
  freshRepositories,
  HOSTILE_STRINGS,
  newId,
  type SetupRepositories,
  sampleArticle,
  sampleImage,
} from '../../../support/db-contract.js';

/** ImagesRepository, the same on D1, SQLite, MariaDB and PostgreSQL. */
export function runImagesRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`ImagesRepository contract: ${name}`, () => {
    const db = freshRepositories(setup);

    async function article(): Promise<string> {
      const input = sampleArticle();
      await db.repos.articles.create(input);
      return input.id;
    }

    it('creates an image and finds it by id and by filename', async () => {
      const image = sampleImage(await article(), { contentType: 'image/webp', bytes: 10 * 1024 * 1024 });
      await db.repos.images.create(image);
      expect(await db.repos.images.findById(image.id)).toEqual(image);
      expect(await db.repos.images.findByFilename(image.filename)).toEqual(image);
    });

    it('answers not_found for an unknown article', async () => {
      const image = sampleImage(newId());
      await expect(db.repos.images.create(image)).rejects.toMatchObject(domainError('not_found'));
      await expect(db.repos.images.create(sampleImage('malformed'))).rejects.toMatchObject(domainError('not_found'));
      expect(await db.repos.images.findById(image.id)).toBeNull();
    });

    it('refuses a second image with the same filename', async () => {
      const articleId = await article();
      const first = sampleImage(articleId, { filename: 'same.png' });
      await db.repos.images.create(first);
      await expect(db.repos.images.create(sampleImage(articleId, { filename: 'same.png' }))).rejects.toMatchObject(
        domainError('conflict'),
      );
    });

    it('finds nothing for unknown, malformed or hostile filenames', async () => {
      const image = sampleImage(await article());
      await db.repos.images.create(image);
      expect(await db.repos.images.findByFilename(`${image.filename} `)).toBeNull();
      expect(await db.repos.images.findByFilename(image.filename.toUpperCase())).toBeNull();
      expect(await db.repos.images.findById(newId())).toBeNull();
      expect(await db.repos.images.findById('../../etc/passwd')).toBeNull();
      for (const name of [...HOSTILE_STRINGS, '%', '_', '%.png', '..%2f', 'nul\u0000.png', '']) {
        expect(await db.repos.images.findByFilename(name)).toBeNull();
      }
      // Many at once (a body's images): exact names only, the unknown and hostile left out.
      const names = [
        image.filename,
        `${image.filename} `,
        image.filename.toUpperCase(),
        ...HOSTILE_STRINGS,
        'nul\u0000.png',
      ];
      expect(await db.repos.images.findByFilenames(names)).toEqual([image]);
      expect(await db.repos.images.findByFilenames([])).toEqual([]);
    });

    it('lists images of an article newest first, with keyset pages', async () => {
      const articleId = await article();
      const otherId = await article();
      const ids = ascendingIds(5);
      for (const id of ids) await db.repos.images.create(sampleImage(articleId, { id }));
      await db.repos.images.create(sampleImage(otherId));
      const newestFirst = [...ids].reverse();

      const page1 = await db.repos.images.listByArticle(articleId, { limit: 2 });
      expect(page1.map((i) => i.id)).toEqual(newestFirst.slice(0, 2));
      const page2 = await db.repos.images.listByArticle(articleId, { limit: 2, beforeId: page1[1]!.id });
      expect(page2.map((i) => i.id)).toEqual(newestFirst.slice(2, 4));
      const page3 = await db.repos.images.listByArticle(articleId, { limit: 2, beforeId: page2[1]!.id });
      expect(page3.map((i) => i.id)).toEqual(newestFirst.slice(4));
      expect(await db.repos.images.listByArticle(articleId, { limit: 2, beforeId: ids[0]! })).toEqual([]);
      expect(await db.repos.images.listByArticle(newId(), { limit: 10 })).toEqual([]);
      await expect(db.repos.images.listByArticle(articleId, { limit: 2, beforeId: 'zzz' })).rejects.toMatchObject(
        domainError('invalid_request'),
      );
    });

    it('lists images of several articles at once, oldest first per article', async () => {
      const a = await article();
      const b = await article();
      const empty = await article();
      const [a1, b1, a2, b2] = ascendingIds(4);
      const images = {
        a1: sampleImage(a, { id: a1 }),
        b1: sampleImage(b, { id: b1 }),
        a2: sampleImage(a, { id: a2 }),
        b2: sampleImage(b, { id: b2 }),
      };
      // Inserted out of order on purpose.
      for (const image of [images.b2, images.a2, images.a1, images.b1]) await db.repos.images.create(image);

      const map = await db.repos.images.listForArticles([a, b, empty]);
      expect(map.get(a)).toEqual([images.a1, images.a2]);
      expect(map.get(b)).toEqual([images.b1, images.b2]);
      expect(map.get(empty)).toEqual([]);
      expect((await db.repos.images.listForArticles([])).size).toBe(0);
    });

    it('handles more articles than one statement may bind', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 120; i++) ids.push(newId());
      const a = await article();
      const image = sampleImage(a);
      await db.repos.images.create(image);
      const map = await db.repos.images.listForArticles([...ids, a]);
      expect(map.size).toBe(121);
      expect(map.get(a)).toEqual([image]);
    });

    it('lists every image newest first, by article and by filename text taken literally', async () => {
      const a = await article();
      const b = await article();
      const [i1, i2, i3, i4] = ascendingIds(4);
      const images = [
        sampleImage(a, { id: i1, filename: 'cat_1.png' }),
        sampleImage(b, { id: i2, filename: 'cat%1.png' }),
        sampleImage(a, { id: i3, filename: 'dog!1.jpg' }),
        sampleImage(b, { id: i4, filename: 'catx1.png' }),
      ];
      for (const image of images) await db.repos.images.create(image);
      const ids = async (q: Parameters<typeof db.repos.images.list>[0]) =>
        (await db.repos.images.list(q)).map((i) => i.filename);

      expect(await ids({ limit: 10 })).toEqual(['catx1.png', 'dog!1.jpg', 'cat%1.png', 'cat_1.png']);
      expect(await ids({ limit: 2, beforeId: i3 })).toEqual(['cat%1.png', 'cat_1.png']);
      expect(await ids({ limit: 10, articleId: a })).toEqual(['dog!1.jpg', 'cat_1.png']);
      expect(await ids({ limit: 10, textContains: 'cat' })).toEqual(['catx1.png', 'cat%1.png', 'cat_1.png']);
      expect(await ids({ limit: 10, textContains: 'CAT' })).toEqual(['catx1.png', 'cat%1.png', 'cat_1.png']);
      // Wildcards in the user's text match only themselves.
      expect(await ids({ limit: 10, textContains: 't_1' })).toEqual(['cat_1.png']);
      expect(await ids({ limit: 10, textContains: 't%1' })).toEqual(['cat%1.png']);
      expect(await ids({ limit: 10, textContains: '!1' })).toEqual(['dog!1.jpg']);
      expect(await ids({ limit: 10, textContains: '%' })).toEqual(['cat%1.png']);
      expect(await ids({ limit: 10, textContains: 'cat', articleId: b })).toEqual(['catx1.png', 'cat%1.png']);
      expect(await ids({ limit: 10, articleId: 'malformed' })).toEqual([]);
      for (const text of HOSTILE_STRINGS) {
        const short = text.slice(0, 12);
        expect(await ids({ limit: 10, textContains: short })).toEqual([]);
      }
      await expect(db.repos.images.list({ limit: 10, textContains: 'x'.repeat(49) })).rejects.toMatchObject(
        domainError('invalid_request'),
      );
      expect(await ids({ limit: 10, textContains: 'x'.repeat(48) })).toEqual([]);
      await expect(db.repos.images.list({ limit: 10, textContains: 'a\u0000' })).rejects.toMatchObject(
        domainError('invalid_request'),
      );
    });

    it('keeps an image’s words, changes only those given, and finds images by them', async () => {
      const a = await article();
      const [i1, i2] = ascendingIds(2);
      const named = sampleImage(a, { id: i1, originalName: 'Ürlaub am Meer.JPG', alt: 'Sand', caption: '' });
      const plain = sampleImage(a, { id: i2 });
      await db.repos.images.create(named);
      await db.repos.images.create(plain);
      expect(await db.repos.images.findById(named.id)).toEqual(named);
      expect(await db.repos.images.findById(plain.id)).toMatchObject({ originalName: null, alt: '', caption: '' });

      const caption = `Line one\n${HOSTILE_STRINGS[0]}`;
      const updated = await db.repos.images.update(named.id, { alt: 'Beach at dusk', caption });
      expect(updated).toEqual({ ...named, alt: 'Beach at dusk', caption });
      expect(await db.repos.images.update(named.id, {})).toEqual(updated);
      expect(await db.repos.images.update(named.id, { originalName: null })).toMatchObject({
        originalName: null,
        alt: 'Beach at dusk',
      });
      await db.repos.images.update(named.id, { originalName: 'Ürlaub am Meer.JPG' });
      expect(await db.repos.images.update(newId(), { alt: 'x' })).toBeNull();
      expect(await db.repos.images.update('malformed', { alt: 'x' })).toBeNull();

      const found = async (text: string) =>
        (await db.repos.images.list({ limit: 10, textContains: text })).map((i) => i.id);
      expect(await found('am meer')).toEqual([named.id]);
      expect(await found('.jpg')).toEqual([named.id]);
      expect(await found('DUSK')).toEqual([named.id]);
      expect(await found('line one')).toEqual([named.id]);
      expect(await found(plain.filename.slice(-24))).toEqual([plain.id]);
    });

    it('deletes an image once', async () => {
      const image = sampleImage(await article());
      await db.repos.images.create(image);
      expect(await db.repos.images.delete(image.id)).toBe(true);
      expect(await db.repos.images.findByFilename(image.filename)).toBeNull();
      expect(await db.repos.images.delete(image.id)).toBe(false);
      expect(await db.repos.images.delete('malformed')).toBe(false);
    });
  });
}
