import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Author } from '../../worker/src/core/domain/entities.js';
import type { Repositories } from '../../worker/src/ports/repositories.js';
import {
  HOSTILE_STRINGS,
  ascendingIds,
  domainError,
  newId,
  sampleArticle,
  type RepositoryContractSetup,
  type SetupRepositories,
} from '../support/db-contract.js';

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
    let ctx: RepositoryContractSetup;
    let repos: Repositories;
    beforeEach(async () => {
      ctx = await setup();
      repos = ctx.repos;
    });
    afterEach(async () => {
      await ctx.cleanup();
    });

    it('creates an author and reads every field back unchanged; unknown and malformed ids find nothing', async () => {
      const input = sampleAuthor({ name: HOSTILE_STRINGS[4]!, bio: HOSTILE_STRINGS[3]!, avatarUrl: 'https://cdn.example/a.png' });
      await repos.authors.create(input);
      expect(await repos.authors.findById(input.id)).toEqual(input);
      const bare = sampleAuthor({ bio: null, avatarUrl: null });
      await repos.authors.create(bare);
      expect(await repos.authors.findById(bare.id)).toEqual(bare);
      expect(await repos.authors.findById(newId())).toBeNull();
      expect(await repos.authors.findById("' or 1=1 --")).toBeNull();
    });

    it('refuses a taken slug on create and on update (conflict)', async () => {
      const first = sampleAuthor({ slug: 'jane-doe' });
      await repos.authors.create(first);
      await expect(repos.authors.create(sampleAuthor({ slug: 'jane-doe' }))).rejects.toMatchObject(domainError('conflict'));
      const second = sampleAuthor({ slug: 'john-doe' });
      await repos.authors.create(second);
      await expect(repos.authors.update(second.id, { slug: 'jane-doe' }, LATER)).rejects.toMatchObject(domainError('conflict'));
      expect(await repos.authors.findById(second.id)).toEqual(second);
      // Keeping one's own slug is no conflict.
      expect((await repos.authors.update(first.id, { slug: 'jane-doe', name: 'Jane' }, LATER))?.name).toBe('Jane');
      expect((await repos.authors.list({ limit: 10 })).length).toBe(2);
    });

    it('refuses NUL characters and malformed ids on create', async () => {
      await expect(repos.authors.create(sampleAuthor({ bio: 'a\u0000b' }))).rejects.toMatchObject(domainError('invalid_request'));
      await expect(repos.authors.create(sampleAuthor({ id: 'nope' }))).rejects.toMatchObject(domainError('invalid_request'));
      expect(await repos.authors.list({ limit: 10 })).toEqual([]);
    });

    it('lists newest first, keyset paged', async () => {
      const ids = ascendingIds(5);
      for (const id of ids) await repos.authors.create(sampleAuthor({ id }));
      const newestFirst = [...ids].reverse();
      const first = await repos.authors.list({ limit: 3 });
      expect(first.map((a) => a.id)).toEqual(newestFirst.slice(0, 3));
      const rest = await repos.authors.list({ limit: 3, beforeId: first[2]!.id });
      expect(rest.map((a) => a.id)).toEqual(newestFirst.slice(3));
    });

    it('updates only the given fields and bumps updatedAt; unknown ids give null', async () => {
      const author = sampleAuthor();
      await repos.authors.create(author);
      const updated = await repos.authors.update(author.id, { bio: null, avatarUrl: null, slug: 'new-slug' }, LATER);
      expect(updated).toEqual({ ...author, bio: null, avatarUrl: null, slug: 'new-slug', updatedAt: LATER });
      expect(await repos.authors.findById(author.id)).toEqual(updated);
      expect(await repos.authors.update(newId(), { name: 'x' }, LATER)).toBeNull();
      expect(await repos.authors.update('malformed', { name: 'x' }, LATER)).toBeNull();
    });

    it('deletes an unused author once; unknown and malformed ids give false', async () => {
      const author = sampleAuthor();
      await repos.authors.create(author);
      expect(await repos.authors.delete(author.id)).toBe(true);
      expect(await repos.authors.findById(author.id)).toBeNull();
      expect(await repos.authors.delete(author.id)).toBe(false);
      expect(await repos.authors.delete('malformed')).toBe(false);
    });

    it('refuses to delete an author that an article names (conflict), leaving the link intact', async () => {
      const [a, b] = [sampleAuthor(), sampleAuthor()];
      await repos.authors.create(a);
      await repos.authors.create(b);
      const article = sampleArticle({ authorIds: [b.id, a.id] });
      await repos.articles.create(article);
      const refusal = repos.authors.delete(a.id);
      await expect(refusal).rejects.toMatchObject(domainError('conflict'));
      await expect(refusal).rejects.toThrow(/articles use it/);
      expect(await repos.authors.findById(a.id)).toEqual(a);
      expect((await repos.articles.findById(article.id))?.authorIds).toEqual([b.id, a.id]);
      // Once no article names the author, it can go.
      await repos.articles.update(article.id, { authorIds: [b.id] }, LATER);
      expect(await repos.authors.delete(a.id)).toBe(true);
      expect((await repos.articles.findById(article.id))?.authorIds).toEqual([b.id]);
    });
  });
}
