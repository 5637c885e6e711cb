import { asc, eq, inArray, sql } from 'drizzle-orm';
import { createCatalogRows } from '../../adapters/db/shared/catalog-rows.js';
import { preparedInList } from '../../adapters/db/shared/prepared-in-list.js';
import { chunk, guarded, MAX_PARAMS, normalizeId, refuseNul } from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { DomainError } from '../../core/domain/errors.js';
import type { TagsRepository } from './tags.port.js';
import type { TagRef } from './tags.schema.js';

const slugTaken = () =>
  new DomainError('conflict', 'Another tag already has this slug', [
    { path: 'slug', message: 'slug is already in use' },
  ]);

export function createTagsRepository(kit: SqlKit): TagsRepository {
  const { db } = kit;
  const { tags, articleTags } = kit.tables;
  // article_tags.tag_id cascades: deleting a tag removes its links in the same
  // statement, and a link a concurrent article write adds either commits
  // first (and goes too) or fails on the foreign key.
  const rows = createCatalogRows(kit, { table: tags, uniqueConflict: slugTaken });

  const ofArticle = kit.prepare(
    db
      .select({ id: tags.id, name: tags.name, slug: tags.slug })
      .from(articleTags)
      .innerJoin(tags, eq(tags.id, articleTags.tagId))
      .where(eq(articleTags.articleId, sql.placeholder('id')))
      .orderBy(asc(articleTags.position)),
    'tags_of_article',
  );

  const refsOf = preparedInList(kit, 'tags_in', (ids) =>
    db.select({ id: tags.id, name: tags.name, slug: tags.slug }).from(tags).where(inArray(tags.id, ids)),
  );

  const repo: TagsRepository = {
    findById: rows.findById,
    findBySlug: (slug) => rows.findByUnique(tags.slug, slug),
    list: rows.list,
    delete: rows.delete,

    async create(tag) {
      refuseNul({ name: tag.name, slug: tag.slug });
      await rows.create(tag);
    },

    async update(id, patch, now) {
      refuseNul({ name: patch.name, slug: patch.slug });
      return rows.update(id, { name: patch.name, slug: patch.slug }, now);
    },

    async refsOfArticle(articleId) {
      const key = normalizeId(articleId);
      return key === null ? [] : ofArticle({ id: key });
    },

    async refsByIds(ids) {
      const map = new Map<string, TagRef>();
      const keys = [...new Set(ids.map(normalizeId).filter((id): id is string => id !== null))].sort();
      for (const part of chunk(keys, MAX_PARAMS)) for (const ref of await refsOf(part)) map.set(ref.id, ref);
      return map;
    },
  };
  return guarded(kit, repo);
}
