import { type Column, eq, inArray, type Placeholder, type SQL } from 'drizzle-orm';
import { orderedRowsSql, rowsInOrder } from '../../adapters/db/shared/ordered-ids.js';
import { createOrderedLinks } from '../../adapters/db/shared/ordered-links.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import type { TagRef } from './tags.schema.js';

/**
 * An article's tags as the articles repository stores them: ordered links in
 * `article_tags` (read, written and checked as authors are, adapters/db/shared/ordered-links.ts),
 * and the `?tag=` filter. Deleting an article or a tag removes its links (the
 * foreign keys cascade).
 */
export function createArticleTagLinks(kit: SqlKit) {
  const { db } = kit;
  const { articles, articleTags, tags } = kit.tables;
  return {
    ...createOrderedLinks(kit, {
      table: articleTags,
      field: 'tagId',
      targetId: tags.id,
      input: 'tagIds',
      noun: 'tag',
    }),

    /**
     * The tags of the article `articleId` names, in order, with their names
     * and slugs, as a column of the article's own statement (read them with
     * `tagRefsIn`): a read that shows tags needs no second statement.
     */
    refsOf(articleId: Column): SQL<unknown> {
      const fields = { id: tags.id, name: tags.name, slug: tags.slug };
      return orderedRowsSql(
        kit,
        { table: articleTags, position: articleTags.position, owner: articleTags.articleId },
        { table: tags, on: eq(tags.id, articleTags.tagId), fields },
        articleId,
      );
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
  };
}

/** The tags of a `refsOf` column, in the article's order. */
export const tagRefsIn = (value: unknown): TagRef[] => rowsInOrder<TagRef>(value);
