import { inArray } from 'drizzle-orm';
import { createCatalogRows } from '../../adapters/db/shared/catalog-rows.js';
import { preparedInList } from '../../adapters/db/shared/prepared-in-list.js';
import { chunk, guarded, MAX_PARAMS, normalizeId, refuseNul } from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { DomainError } from '../../core/domain/errors.js';
import type { Author, AuthorsRepository } from './authors.port.js';

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
  // article_authors.author_id is ON DELETE RESTRICT: the database refuses
  // while any article links the author, so no link is ever orphaned.
  const rows = createCatalogRows(kit, {
    table: kit.tables.authors,
    uniqueConflict: slugTaken,
    inUse,
  });

  const { authors } = kit.tables;
  const byIds = preparedInList(kit, 'authors_in', (ids) =>
    kit.db.select().from(authors).where(inArray(authors.id, ids)),
  );

  const repo: AuthorsRepository = {
    findById: rows.findById,
    findBySlug: (slug) => rows.findByUnique(authors.slug, slug),

    async findByIds(ids) {
      const found = new Map<string, Author>();
      const keys = [...new Set(ids.map(normalizeId).filter((id): id is string => id !== null))].sort();
      for (const part of chunk(keys, MAX_PARAMS)) for (const row of await byIds(part)) found.set(row.id, row);
      return found;
    },
    list: rows.list,
    delete: rows.delete,

    async create(author) {
      refuseNul({ name: author.name, slug: author.slug, bio: author.bio, avatarUrl: author.avatarUrl });
      await rows.create(author);
    },

    async update(id, patch, now) {
      refuseNul({ name: patch.name, slug: patch.slug, bio: patch.bio, avatarUrl: patch.avatarUrl });
      const { name, slug, bio, avatarUrl } = patch;
      return rows.update(id, { name, slug, bio, avatarUrl }, now);
    },
  };
  return guarded(kit, repo);
}
