import { and, asc, eq, lte } from 'drizzle-orm';
import {
  guarded,
  normalizeId,
  refuseOversizedRow,
  requireId,
  requireLimit,
} from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { guardHolds, rowsOf } from '../../adapters/db/shared/unit-of-work.js';
import { fieldsText } from './article-draft.schema.js';
import type { ArticleDraftsRepository, ArticleFields } from './article-drafts.port.js';

/** Stored JSON back to fields; the rows are written only by this code (and imports check them strictly). */
export const parseFields = (text: string): ArticleFields => JSON.parse(text) as ArticleFields;

/** The draft's row lives beside its article's and goes with it (ON DELETE CASCADE). */
export function createArticleDraftsRepository(kit: SqlKit): ArticleDraftsRepository {
  const { db } = kit;
  const { articleDrafts: drafts } = kit.tables;

  const repo = guarded(kit, {
    async find(articleId: string) {
      const key = normalizeId(articleId);
      if (key === null) return null;
      const [row] = await db.select().from(drafts).where(eq(drafts.articleId, key)).limit(1);
      if (!row) return null;
      const { fields, ...rest } = row;
      return { ...parseFields(fields), ...rest };
    },

    async save(draft: Parameters<ArticleDraftsRepository['save']>[0], replaces: number | null) {
      const articleId = requireId(draft.articleId, 'articleId');
      const fields = fieldsText(draft);
      refuseOversizedRow(kit, { fields });
      const values = { fields, version: draft.version, baseVersion: draft.baseVersion, updatedAt: draft.updatedAt };
      if (replaces !== null) {
        const result = await db
          .update(drafts)
          .set(values)
          .where(and(eq(drafts.articleId, articleId), eq(drafts.version, replaces)));
        return kit.affectedRows(result) === 0 ? 'stale' : 'written';
      }
      try {
        await db.insert(drafts).values({ articleId, ...values });
        return 'written';
      } catch (err) {
        if (kit.isUniqueViolation(err)) return 'stale';
        if (kit.isForeignKeyViolation(err)) return 'gone';
        throw err;
      }
    },

    async schedule(articleId: string, publishAt: Date | null) {
      const key = normalizeId(articleId);
      if (key === null) return false;
      return kit.affectedRows(await db.update(drafts).set({ publishAt }).where(eq(drafts.articleId, key))) > 0;
    },

    async due(now: Date, limit: number) {
      return db
        .select({ articleId: drafts.articleId, version: drafts.version })
        .from(drafts)
        .where(lte(drafts.publishAt, now))
        .orderBy(asc(drafts.publishAt))
        .limit(requireLimit(limit));
    },

    async delete(articleId: string) {
      const key = normalizeId(articleId);
      if (key === null) return false;
      return kit.affectedRows(await db.delete(drafts).where(eq(drafts.articleId, key))) > 0;
    },
  });

  return {
    ...repo,
    // Built inside the article write's transaction; a newer draft written meanwhile stays.
    dropRows: (articleId, version) =>
      rowsOf((tx, guard) => [
        tx
          .delete(drafts)
          .where(and(eq(drafts.articleId, articleId), eq(drafts.version, version), guardHolds(tx, guard))),
      ]),
  };
}
