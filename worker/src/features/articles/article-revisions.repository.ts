import { and, desc, eq, inArray } from 'drizzle-orm';
import { chunk, guarded, MAX_PARAMS, normalizeId } from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { insertRow, rowsOf } from '../../adapters/db/shared/unit-of-work.js';
import { fieldsText } from './article-draft.schema.js';
import type { ArticleRevision, ArticleRevisionsRepository, RevisionActorType } from './article-drafts.port.js';
import { parseFields } from './article-drafts.repository.js';

/** More than any REVISIONS_MAX_COUNT allows: a list read is bounded even before a trim ran. */
const LIST_CAP = 1000;

export function createArticleRevisionsRepository(kit: SqlKit): ArticleRevisionsRepository {
  const { db } = kit;
  const { articleRevisions: revisions } = kit.tables;
  const summary = {
    id: revisions.id,
    createdAt: revisions.createdAt,
    actorType: revisions.actorType,
    actorId: revisions.actorId,
    version: revisions.version,
    title: revisions.title,
    bytes: revisions.bytes,
  };

  const repo = guarded(kit, {
    async list(articleId: string) {
      const key = normalizeId(articleId);
      if (key === null) return [];
      const rows = await db
        .select(summary)
        .from(revisions)
        .where(eq(revisions.articleId, key))
        .orderBy(desc(revisions.id))
        .limit(LIST_CAP);
      return rows.map((r) => ({ ...r, actorType: r.actorType as RevisionActorType }));
    },

    async find(articleId: string, id: string) {
      const [article, key] = [normalizeId(articleId), normalizeId(id)];
      if (article === null || key === null) return null;
      const [row] = await db
        .select()
        .from(revisions)
        .where(and(eq(revisions.id, key), eq(revisions.articleId, article)))
        .limit(1);
      if (!row) return null;
      const { fields, ...rest } = row;
      return { ...parseFields(fields), ...rest, actorType: rest.actorType as RevisionActorType };
    },

    async trim(articleId: string, maxCount: number, maxBytes: number) {
      const key = normalizeId(articleId);
      if (key === null) return 0;
      const rows = await db
        .select({ id: revisions.id, bytes: revisions.bytes })
        .from(revisions)
        .where(eq(revisions.articleId, key))
        .orderBy(desc(revisions.id));
      let total = 0;
      const drop: string[] = [];
      rows.forEach((r, i) => {
        total += r.bytes;
        if (i > 0 && (i >= maxCount || total > maxBytes)) drop.push(r.id);
      });
      for (const ids of chunk(drop, MAX_PARAMS)) await db.delete(revisions).where(inArray(revisions.id, ids));
      return drop.length;
    },
  });

  return {
    ...repo,
    rows: (revision: ArticleRevision) =>
      rowsOf((tx, guard) => [
        insertRow(
          tx,
          revisions,
          {
            id: revision.id,
            articleId: revision.articleId,
            createdAt: revision.createdAt,
            actorType: revision.actorType,
            actorId: revision.actorId,
            version: revision.version,
            title: revision.title,
            fields: fieldsText(revision),
            bytes: revision.bytes,
          },
          guard,
        ),
      ]),
  };
}
