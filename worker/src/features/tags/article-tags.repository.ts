import { eq, inArray, type Placeholder, type SQL } from 'drizzle-orm';
import { createOrderedLinks } from '../../adapters/db/shared/ordered-links.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';

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
