import { desc, eq, lt } from 'drizzle-orm';
import {
  guarded,
  normalizeId,
  refuseNul,
  requireId,
  requireLimit,
} from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { DomainError } from '../../core/domain/errors.js';
import type { Author, AuthorsRepository } from './authors.port.js';

type AuthorRow = SqlKit['tables']['authors']['$inferSelect'];

const toAuthor = (row: AuthorRow): Author => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  bio: row.bio,
  avatarUrl: row.avatarUrl,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const slugTaken = () =>
  new DomainError('conflict', 'Another author already has this slug', [
    { path: 'slug', message: 'slug is already in use' },
  ]);
const inUse = () =>
  new DomainError(
    'conflict',
    'This author cannot be deleted: articles use it (remove the author from those articles first)',
  );

export function createAuthorsRepository(kit: SqlKit): AuthorsRepository {
  const { db } = kit;
  const { authors } = kit.tables;

  async function findById(id: string): Promise<Author | null> {
    const key = normalizeId(id);
    if (key === null) return null;
    const [row] = await db.select().from(authors).where(eq(authors.id, key)).limit(1);
    return row ? toAuthor(row) : null;
  }

  const repo: AuthorsRepository = {
    findById,

    async create(author) {
      const id = requireId(author.id, 'id');
      refuseNul({ name: author.name, slug: author.slug, bio: author.bio, avatarUrl: author.avatarUrl });
      try {
        await db.insert(authors).values({ ...author, id });
      } catch (err) {
        if (kit.isUniqueViolation(err)) throw slugTaken();
        throw err;
      }
    },

    async list({ limit, beforeId }) {
      const rows = await db
        .select()
        .from(authors)
        .where(beforeId === undefined ? undefined : lt(authors.id, requireId(beforeId, 'cursor')))
        .orderBy(desc(authors.id))
        .limit(requireLimit(limit));
      return rows.map(toAuthor);
    },

    async update(id, patch, now) {
      const key = normalizeId(id);
      if (key === null) return null;
      refuseNul({ name: patch.name, slug: patch.slug, bio: patch.bio, avatarUrl: patch.avatarUrl });
      const set: Partial<AuthorRow> = { updatedAt: now };
      if (patch.name !== undefined) set.name = patch.name;
      if (patch.slug !== undefined) set.slug = patch.slug;
      if (patch.bio !== undefined) set.bio = patch.bio;
      if (patch.avatarUrl !== undefined) set.avatarUrl = patch.avatarUrl;
      let result: unknown;
      try {
        result = await db.update(authors).set(set).where(eq(authors.id, key));
      } catch (err) {
        if (kit.isUniqueViolation(err)) throw slugTaken();
        throw err;
      }
      if (kit.affectedRows(result) === 0) return null;
      return findById(key);
    },

    async delete(id) {
      const key = normalizeId(id);
      if (key === null) return false;
      try {
        // article_authors.author_id is ON DELETE RESTRICT: the database refuses
        // while any article links the author, so no link is ever orphaned.
        return kit.affectedRows(await db.delete(authors).where(eq(authors.id, key))) > 0;
      } catch (err) {
        if (kit.isForeignKeyViolation(err)) throw inUse();
        throw err;
      }
    },
  };
  return guarded(kit, repo);
}
