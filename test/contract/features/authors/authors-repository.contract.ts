import { describe, expect, it } from 'vitest';
import type { Author } from '../../../../worker/src/features/authors/authors.port.js';
import {
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

export function sampleAuthor(overrides: Partial<Author> = {}): Author {
  const id = overrides.id ?? newId();
  return {
    id,
    name: 'An Author',
    slug: `author-${id.slice(-12)}`,
    bio: 'Writes things',
    avatarUrl: '/static/uploadedImages/0193a0b0-0000-7000-8000-000000000000.png',
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

/** AuthorsRepository, the same on D1, SQLite, MariaDB and PostgreSQL. */
export function runAuthorsRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`AuthorsRepository contract: ${name}`, () => {
    const db = freshRepositories(setup);

    it('creates an author and reads every field back unchanged; unknown and malformed ids find nothing', async () => {
      const input = sampleAuthor({
        name: HOSTILE_STRINGS[4]!,
        bio: HOSTILE_STRINGS[3]!,
        avatarUrl: 'https://cdn.example/a.png',
      });
      await db.repos.authors.create(input);
      expect(await db.repos.authors.findById(input.id)).toEqual(input);
      const bare = sampleAuthor({ bio: null, avatarUrl: null });
      await db.repos.authors.create(bare);
      expect(await db.repos.authors.findById(bare.id)).toEqual(bare);
      expect(await db.repos.authors.findById(newId())).toBeNull();
      expect(await db.repos.authors.findById("' or 1=1 --")).toBeNull();
    });

    it('finds an author by slug, exactly as written', async () => {
      const author = sampleAuthor({ slug: 'ada-lovelace' });
      await db.repos.authors.create(author);
      expect(await db.repos.authors.findBySlug('ada-lovelace')).toEqual(author);
      expect(await db.repos.authors.findBySlug('Ada-Lovelace')).toBeNull();
      expect(await db.repos.authors.findBySlug('ada')).toBeNull();
    });

    it('reads many authors by id at once; unknown and malformed ids are left out', async () => {
      const [a, b] = [sampleAuthor(), sampleAuthor({ bio: null, avatarUrl: null })];
      await db.repos.authors.create(a);
      await db.repos.authors.create(b);
      const found = await db.repos.authors.findByIds([b.id, newId(), a.id.toUpperCase(), 'nope', b.id]);
      expect([...found.keys()].sort()).toEqual([a.id, b.id].sort());
      expect(found.get(a.id)).toEqual(a);
      expect(found.get(b.id)).toEqual(b);
      expect((await db.repos.authors.findByIds([])).size).toBe(0);
    });

    it('refuses a taken slug on create and on update (conflict)', async () => {
      const first = sampleAuthor({ slug: 'jane-doe' });
      await db.repos.authors.create(first);
      await expect(db.repos.authors.create(sampleAuthor({ slug: 'jane-doe' }))).rejects.toMatchObject(
        domainError('conflict'),
      );
      const second = sampleAuthor({ slug: 'john-doe' });
      await db.repos.authors.create(second);
      await expect(db.repos.authors.update(second.id, { slug: 'jane-doe' }, LATER)).rejects.toMatchObject(
        domainError('conflict'),
      );
      expect(await db.repos.authors.findById(second.id)).toEqual(second);
      // Keeping one's own slug is no conflict.
      expect((await db.repos.authors.update(first.id, { slug: 'jane-doe', name: 'Jane' }, LATER))?.name).toBe('Jane');
      expect((await db.repos.authors.list({ limit: 10 })).length).toBe(2);
    });

    it('refuses NUL characters and malformed ids on create', async () => {
      await expect(db.repos.authors.create(sampleAuthor({ bio: 'a\u0000b' }))).rejects.toMatchObject(
        domainError('invalid_request'),
      );
      await expect(db.repos.authors.create(sampleAuthor({ id: 'nope' }))).rejects.toMatchObject(
        domainError('invalid_request'),
      );
      expect(await db.repos.authors.list({ limit: 10 })).toEqual([]);
    });

    it('lists newest first, keyset paged', async () => {
      await expectKeysetPages(db.repos.authors, (id) => sampleAuthor({ id }));
    });

    it('updates only the given fields and bumps updatedAt; unknown ids give null', async () => {
      const author = sampleAuthor();
      await db.repos.authors.create(author);
      const updated = await db.repos.authors.update(author.id, { bio: null, avatarUrl: null, slug: 'new-slug' }, LATER);
      expect(updated).toEqual({ ...author, bio: null, avatarUrl: null, slug: 'new-slug', updatedAt: LATER });
      expect(await db.repos.authors.findById(author.id)).toEqual(updated);
      expect(await db.repos.authors.update(newId(), { name: 'x' }, LATER)).toBeNull();
      expect(await db.repos.authors.update('malformed', { name: 'x' }, LATER)).toBeNull();
    });

    it('deletes an unused author once; unknown and malformed ids give false', async () => {
      const author = sampleAuthor();
      await db.repos.authors.create(author);
      expect(await db.repos.authors.delete(author.id)).toBe(true);
      expect(await db.repos.authors.findById(author.id)).toBeNull();
      expect(await db.repos.authors.delete(author.id)).toBe(false);
      expect(await db.repos.authors.delete('malformed')).toBe(false);
    });

    it('refuses to delete an author that an article names (conflict), leaving the link intact', async () => {
      const [a, b] = [sampleAuthor(), sampleAuthor()];
      await db.repos.authors.create(a);
      await db.repos.authors.create(b);
      const article = sampleArticle({ authorIds: [b.id, a.id] });
      await db.repos.articles.create(article);
      const refusal = db.repos.authors.delete(a.id);
      await expect(refusal).rejects.toMatchObject(domainError('conflict'));
      await expect(refusal).rejects.toThrow(/articles use it/);
      expect(await db.repos.authors.findById(a.id)).toEqual(a);
      expect((await db.repos.articles.findById(article.id))?.authorIds).toEqual([b.id, a.id]);
      // Once no article names the author, it can go.
      await db.repos.articles.update(article.id, { authorIds: [b.id] }, LATER);
      expect(await db.repos.authors.delete(a.id)).toBe(true);
      expect((await db.repos.articles.findById(article.id))?.authorIds).toEqual([b.id]);
    });
  });
}
