import { and, asc, eq, inArray, ne, notInArray, type SQL, exists as sqlExists } from 'drizzle-orm';
import { chunk, MAX_PARAMS, normalizeId } from '../../adapters/db/shared/repository-support.js';
import type { SqlDb, SqlKit, WriteStatement } from '../../adapters/db/shared/sql-kit.js';
import { DomainError } from '../../core/domain/errors.js';
import type { Rows } from '../../ports/unit-of-work.js';
import { type Image, toImage } from '../media/index.js';
import type { IfVersion } from './articles.port.js';

/** What the delete shares with the rest of the articles repository. */
export interface ArticleWriteHelpers {
  exists(id: string): Promise<boolean>;
  /** A write that matched no row: null when the article is gone, StaleArticle when it is at another version. */
  missedWrite(key: string, ifVersion: IfVersion): Promise<null>;
  /** The article's row, at one of `ifVersion` when given. */
  target(key: string, ifVersion: IfVersion): SQL | undefined;
  /** Locks the article's row for a conditional write of several statements. */
  lockRow(tx: SqlDb, key: string): WriteStatement;
  /** Other features' rows, written only when the write happens (after `lockRow`, before the write). */
  alongside(tx: SqlDb, where: SQL | undefined, also: readonly Rows[]): WriteStatement[];
}

/**
 * Deleting an article with its links and the images only it shows (returned,
 * so the caller deletes their files), in one batch: an image another article
 * shows stays, handed over to it.
 */
export function createArticleDelete(
  kit: SqlKit,
  { exists, missedWrite, target, lockRow, alongside }: ArticleWriteHelpers,
) {
  const { db } = kit;
  const { articles, articleAuthors, articleImages, images } = kit.tables;

  /** For each image, one other article that links it (the smallest id, so every dialect picks the same). */
  async function otherLinks(articleId: string, imageIds: string[]): Promise<Map<string, string>> {
    const map = new Map<string, string>();
    for (const part of chunk(imageIds, MAX_PARAMS - 1)) {
      const rows = await db
        .select({ imageId: articleImages.imageId, articleId: articleImages.articleId })
        .from(articleImages)
        .where(and(inArray(articleImages.imageId, part), ne(articleImages.articleId, articleId)))
        .orderBy(asc(articleImages.imageId), asc(articleImages.articleId));
      for (const row of rows) if (!map.has(row.imageId)) map.set(row.imageId, row.articleId);
    }
    return map;
  }

  return async function deleteArticle(
    id: string,
    ifVersion?: IfVersion,
    also: readonly Rows[] = [],
  ): Promise<Image[] | null> {
    const key = normalizeId(id);
    if (key === null) return null;
    if (ifVersion?.length === 0) return missedWrite(key, ifVersion);
    const where = target(key, ifVersion);
    // An image uploaded between the read and the delete makes the article
    // delete fail on the images foreign key, and so does one another
    // article started linking meanwhile (the guard below keeps its row);
    // the retry then sees it, so no blob is ever left without the row that
    // names it, and no linked image loses its row.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (!(await exists(key))) return null;
      const linked = await db
        .select()
        .from(images)
        .where(
          inArray(
            images.id,
            db.select({ id: articleImages.imageId }).from(articleImages).where(eq(articleImages.articleId, key)),
          ),
        )
        .orderBy(asc(images.id));
      const elsewhere = await otherLinks(
        key,
        linked.map((r) => r.id),
      );
      const doomed = linked.filter((r) => !elsewhere.has(r.id));
      // Still shown elsewhere: its "uploaded for" moves to an article that shows it.
      const handedOver = linked.filter((r) => r.articleId === key && elsewhere.has(r.id));
      const linkedElsewhere = (part: string[]) =>
        db
          .select({ id: articleImages.imageId })
          .from(articleImages)
          .where(and(inArray(articleImages.imageId, part), ne(articleImages.articleId, key)));
      let results: unknown[];
      try {
        results = await kit.atomic((tx) => {
          // Conditional: every statement applies only while the article is at a named version.
          const atVersion =
            ifVersion === undefined ? undefined : sqlExists(tx.select({ id: articles.id }).from(articles).where(where));
          return [
            ...(ifVersion === undefined && also.length === 0 ? [] : [lockRow(tx, key)]),
            ...alongside(tx, where, also),
            ...handedOver.map((r) =>
              tx
                .update(images)
                .set({ articleId: elsewhere.get(r.id)! })
                .where(and(eq(images.id, r.id), eq(images.articleId, key), atVersion)),
            ),
            ...chunk(
              doomed.map((r) => r.id),
              Math.floor((MAX_PARAMS - 3 - (ifVersion?.length ?? 0)) / 2),
            ).map((part) =>
              tx
                .delete(images)
                .where(and(inArray(images.id, part), notInArray(images.id, linkedElsewhere(part)), atVersion)),
            ),
            tx.delete(articleImages).where(and(eq(articleImages.articleId, key), atVersion)),
            tx.delete(articleAuthors).where(and(eq(articleAuthors.articleId, key), atVersion)),
            tx.delete(articles).where(where),
          ];
        });
      } catch (err) {
        if (kit.isForeignKeyViolation(err)) continue;
        throw err;
      }
      if (kit.affectedRows(results[results.length - 1]) === 0) return missedWrite(key, ifVersion);
      return doomed.map(toImage) as Image[];
    }
    throw new DomainError('conflict', 'Images are being added to this article; try again');
  };
}
