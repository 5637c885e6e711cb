import { and, asc, eq, exists, inArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { preparedInList } from '../../adapters/db/shared/prepared-in-list.js';
import { chunk, invalid, MAX_PARAMS, requireId } from '../../adapters/db/shared/repository-support.js';
import type { SqlDb, SqlKit, WriteStatement } from '../../adapters/db/shared/sql-kit.js';
import type { ErrorIssue } from '../../contract/errors.js';

// Three parameters per link row; keeps each insert under D1's parameter cap.
const LINKS_PER_INSERT = Math.floor(MAX_PARAMS / 3);

/** A value selected as a column of an INSERT … SELECT, typed by the column it fills. */
const bound = <T>(value: T, column: Parameters<typeof sql.param>[1] & { name: string }) =>
  sql`${sql.param(value, column)}`.as(column.name);

/**
 * An article's tags as the articles repository stores them: ordered links in
 * `article_tags`, read per article or per page, written inside the article's
 * own batch (so a refused tag leaves nothing half-written), and the `?tag=`
 * filter. Deleting an article or a tag removes its links (the foreign keys cascade).
 */
export function createArticleTagLinks(kit: SqlKit) {
  const { db } = kit;
  const { articles, articleTags, tags } = kit.tables;
  const ofArticles = preparedInList(kit, 'article_tags_in', (ids) =>
    db
      .select({ articleId: articleTags.articleId, tagId: articleTags.tagId })
      .from(articleTags)
      .where(inArray(articleTags.articleId, ids))
      .orderBy(asc(articleTags.articleId), asc(articleTags.position)),
  );

  return {
    /** The input checked: UUIDs (normalised), no tag twice. */
    idsOf(input: string[] | undefined): string[] | undefined {
      if (input === undefined) return undefined;
      const ids = input.map((id, i) => requireId(id, `tagIds.${i}`));
      if (new Set(ids).size !== ids.length) throw invalid('tagIds', 'tagIds must not repeat a tag');
      return ids;
    },

    /** Every id is a key; one read per 90 articles. */
    async ofArticles(articleIds: string[]): Promise<Map<string, string[]>> {
      const map = new Map<string, string[]>(articleIds.map((id) => [id, []]));
      for (const part of chunk(articleIds, MAX_PARAMS)) {
        for (const row of await ofArticles(part)) map.get(row.articleId)?.push(row.tagId);
      }
      return map;
    },

    /**
     * The writes that give an article these tags, in order; `replace` drops
     * the ones it had first. With `onlyWhere` (a condition on the article's
     * row: its version), every write applies only while the article matches
     * it; the caller locks the row first (see the articles repository).
     */
    writes(tx: SqlDb, articleId: string, tagIds: string[], replace: boolean, onlyWhere?: SQL): WriteStatement[] {
      if (onlyWhere === undefined) {
        const rows = tagIds.map((tagId, position) => ({ articleId, tagId, position }));
        return [
          ...(replace ? [tx.delete(articleTags).where(eq(articleTags.articleId, articleId))] : []),
          ...chunk(rows, LINKS_PER_INSERT).map((part) => tx.insert(articleTags).values(part)),
        ];
      }
      const matches = exists(tx.select({ id: articles.id }).from(articles).where(onlyWhere));
      return [
        ...(replace ? [tx.delete(articleTags).where(and(eq(articleTags.articleId, articleId), matches))] : []),
        ...tagIds.map((tagId, position) =>
          tx.insert(articleTags).select(
            tx
              .select({
                articleId: bound(articleId, articleTags.articleId),
                tagId: bound(tagId, articleTags.tagId),
                position: bound(position, articleTags.position),
              })
              .from(articles)
              .where(onlyWhere),
          ),
        ),
      ];
    },

    /** The articles carrying the tag with this slug (a value, or a placeholder of a prepared read). */
    carrying(slug: string | Placeholder): SQL {
      return inArray(
        articles.id,
        db
          .select({ id: articleTags.articleId })
          .from(articleTags)
          .innerJoin(tags, eq(tags.id, articleTags.tagId))
          .where(eq(tags.slug, slug)),
      );
    },

    /** After a foreign-key failure: the given tags that do not exist, by their place in the input. */
    async missing(tagIds: string[] | undefined): Promise<ErrorIssue[]> {
      if (!tagIds || tagIds.length === 0) return [];
      const known = new Set<string>();
      for (const part of chunk(tagIds, MAX_PARAMS)) {
        for (const row of await db.select({ id: tags.id }).from(tags).where(inArray(tags.id, part))) known.add(row.id);
      }
      return tagIds.flatMap((id, i) =>
        known.has(id) ? [] : [{ path: `tagIds.${i}`, message: `tag ${id} does not exist` }],
      );
    },
  };
}
