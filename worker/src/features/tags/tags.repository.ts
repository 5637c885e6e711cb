import { asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { preparedInList } from '../../adapters/db/shared/prepared-in-list.js';
import {
  chunk,
  guarded,
  MAX_PARAMS,
  normalizeId,
  refuseNul,
  requireId,
  requireLimit,
} from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { DomainError } from '../../core/domain/errors.js';
import type { Tag, TagsRepository } from './tags.port.js';
import type { TagRef } from './tags.schema.js';

type TagRow = SqlKit['tables']['tags']['$inferSelect'];

const toTag = (row: TagRow): Tag => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const slugTaken = () =>
  new DomainError('conflict', 'Another tag already has this slug', [
    { path: 'slug', message: 'slug is already in use' },
  ]);

export function createTagsRepository(kit: SqlKit): TagsRepository {
  const { db } = kit;
  const { tags, articleTags } = kit.tables;

  async function findById(id: string): Promise<Tag | null> {
    const key = normalizeId(id);
    if (key === null) return null;
    const [row] = await db.select().from(tags).where(eq(tags.id, key)).limit(1);
    return row ? toTag(row) : null;
  }

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
    findById,

    async create(tag) {
      const id = requireId(tag.id, 'id');
      refuseNul({ name: tag.name, slug: tag.slug });
      try {
        await db.insert(tags).values({ ...tag, id });
      } catch (err) {
        if (kit.isUniqueViolation(err)) throw slugTaken();
        throw err;
      }
    },

    async list({ limit, beforeId }) {
      const rows = await db
        .select()
        .from(tags)
        .where(beforeId === undefined ? undefined : lt(tags.id, requireId(beforeId, 'cursor')))
        .orderBy(desc(tags.id))
        .limit(requireLimit(limit));
      return rows.map(toTag);
    },

    async update(id, patch, now) {
      const key = normalizeId(id);
      if (key === null) return null;
      refuseNul({ name: patch.name, slug: patch.slug });
      const set: Partial<TagRow> = { updatedAt: now };
      if (patch.name !== undefined) set.name = patch.name;
      if (patch.slug !== undefined) set.slug = patch.slug;
      try {
        const result = await db.update(tags).set(set).where(eq(tags.id, key));
        if (kit.affectedRows(result) === 0) return null;
      } catch (err) {
        if (kit.isUniqueViolation(err)) throw slugTaken();
        throw err;
      }
      return findById(key);
    },

    async delete(id) {
      const key = normalizeId(id);
      if (key === null) return false;
      // article_tags.tag_id cascades: the links go in the same statement, and
      // a link a concurrent article write adds either commits first (and goes
      // too) or fails on the foreign key.
      return kit.affectedRows(await db.delete(tags).where(eq(tags.id, key))) > 0;
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
