import { describe, expect, it } from 'vitest';
import {
  domainError,
  freshRepositories,
  newId,
  type SetupRepositories,
  sampleArticle,
} from '../../../support/db-contract.js';

const LATER = new Date('2026-11-26T10:00:00.000Z');

/** Slugs, excerpts, stored html and feature images of ArticlesRepository, on D1, SQLite, MariaDB and PostgreSQL. */
export function runArticleContentRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`ArticlesRepository content contract: ${name}`, () => {
    const db = freshRepositories(setup);

    async function site(): Promise<string> {
      const id = newId();
      await db.fixtures.insertSite(id);
      return id;
    }

    it('round-trips slug, excerpt, html and feature image id', async () => {
      const input = sampleArticle({
        slug: 'hello-world',
        excerpt: 'In short.',
        html: '<p>Hi</p>',
        featureImageId: newId(),
      });
      await db.repos.articles.create(input);
      expect(await db.repos.articles.findById(input.id)).toEqual(input);
    });

    it('keeps slugs unique per site, articles without a site sharing one scope', async () => {
      const [s1, s2] = [await site(), await site()];
      await db.repos.articles.create(sampleArticle({ slug: 'same' }));
      await db.repos.articles.create(sampleArticle({ slug: 'same', siteId: s1 }));
      await db.repos.articles.create(sampleArticle({ slug: 'same', siteId: s2 }));
      for (const siteId of [null, s1, s2]) {
        const clash = sampleArticle({ slug: 'same', siteId });
        await expect(db.repos.articles.create(clash)).rejects.toMatchObject({
          ...domainError('conflict'),
          issues: [{ path: 'slug', message: expect.stringContaining('same') }],
        });
        expect(await db.repos.articles.findById(clash.id)).toBeNull();
      }
    });

    it('refuses a slug or a site change that clashes in the scope, changing nothing', async () => {
      const s1 = await site();
      const a = sampleArticle({ slug: 'a' });
      const b = sampleArticle({ slug: 'b' });
      const elsewhere = sampleArticle({ slug: 'a', siteId: s1 });
      for (const x of [a, b, elsewhere]) await db.repos.articles.create(x);
      await expect(db.repos.articles.update(b.id, { slug: 'a', title: 'New' }, LATER)).rejects.toMatchObject(
        domainError('conflict'),
      );
      // Moving `a` into s1, where `a` is taken; moving `elsewhere` out to no site, where it is too.
      await expect(db.repos.articles.update(a.id, { siteId: s1 }, LATER)).rejects.toMatchObject(
        domainError('conflict'),
      );
      await expect(db.repos.articles.update(elsewhere.id, { siteId: null }, LATER)).rejects.toMatchObject(
        domainError('conflict'),
      );
      expect(await db.repos.articles.findById(b.id)).toEqual(b);
      expect(await db.repos.articles.findById(a.id)).toEqual(a);
      // A free slug, and a move where it is free, go through; the slug follows the site.
      expect((await db.repos.articles.update(b.id, { slug: 'c' }, LATER))?.slug).toBe('c');
      expect((await db.repos.articles.update(b.id, { siteId: s1 }, LATER))?.siteId).toBe(s1);
      await expect(db.repos.articles.create(sampleArticle({ slug: 'c', siteId: s1 }))).rejects.toMatchObject(
        domainError('conflict'),
      );
      await db.repos.articles.create(sampleArticle({ slug: 'c' }));
    });

    it('lists the slugs of a scope that start with a prefix', async () => {
      const s1 = await site();
      for (const slug of ['post', 'post-2', 'poster', 'other']) await db.repos.articles.create(sampleArticle({ slug }));
      await db.repos.articles.create(sampleArticle({ slug: 'post-3', siteId: s1 }));
      expect([...(await db.repos.articles.slugsStartingWith(null, 'post'))].sort()).toEqual([
        'post',
        'post-2',
        'poster',
      ]);
      expect([...(await db.repos.articles.slugsStartingWith(s1, 'post'))]).toEqual(['post-3']);
      // Not a slug: nothing, rather than a LIKE pattern.
      expect(await db.repos.articles.slugsStartingWith(null, '%')).toEqual(new Set());
    });

    it('finds by slug (and site), and reads html only when asked', async () => {
      const s1 = await site();
      const plain = sampleArticle({ slug: 'x', html: '<p>x</p>' });
      const onSite = sampleArticle({ slug: 'x', siteId: s1, html: '<p>y</p>' });
      await db.repos.articles.create(plain);
      await db.repos.articles.create(onSite);
      await db.repos.articles.create(sampleArticle({ slug: 'y' }));
      const bySlug = await db.repos.articles.list({ slug: 'x', limit: 10 });
      expect(bySlug.map((a) => a.id).sort()).toEqual([plain.id, onSite.id].sort());
      expect(bySlug.every((a) => a.html === null)).toBe(true);
      const inSite = await db.repos.articles.list({ slug: 'x', siteId: s1, limit: 10, withHtml: true });
      expect(inSite).toEqual([onSite]);
      expect(await db.repos.articles.list({ slug: 'nope', limit: 10 })).toEqual([]);
    });

    it('updates and clears excerpt, html and feature image', async () => {
      const a = sampleArticle();
      await db.repos.articles.create(a);
      const imageId = newId();
      const set = await db.repos.articles.update(
        a.id,
        { excerpt: 'E', html: '<p>h</p>', featureImageId: imageId },
        LATER,
      );
      expect(set).toMatchObject({ excerpt: 'E', html: '<p>h</p>', featureImageId: imageId });
      const cleared = await db.repos.articles.update(a.id, { excerpt: null, html: null, featureImageId: null }, LATER);
      expect(cleared).toMatchObject({ excerpt: null, html: null, featureImageId: null });
    });
  });
}
