import { sql } from 'drizzle-orm';
import { idsInOrder, orderedIdsSql } from '../../adapters/db/shared/ordered-ids.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { createArticleTagLinks, tagRefsIn } from '../tags/index.js';
import type { TagRef } from '../tags/tags.schema.js';
import { type ListedRow, toArticle } from './article-row.repository.js';
import type { FoundArticle } from './articles.port.js';

export type { FoundArticle };

/**
 * The columns that carry an article's author links, its tags (with their
 * names and slugs, which every answer shows) and whether it shows an image,
 * in the article's own statement: a single read and a list page are each
 * one statement (one round trip on D1 and on a server database) instead of
 * one more per link table.
 */
export function articleLinkColumns(kit: SqlKit) {
  const { articles, articleAuthors, articleImages } = kit.tables;
  return {
    authorLinks: orderedIdsSql(
      kit,
      {
        table: articleAuthors,
        position: articleAuthors.position,
        id: articleAuthors.authorId,
        owner: articleAuthors.articleId,
      },
      articles.id,
    ),
    tagRefs: createArticleTagLinks(kit).refsOf(articles.id),
    imageLinks: sql<
      number | string
    >`(select count(*) from ${articleImages} where ${articleImages.articleId} = ${articles.id})`,
  };
}

type LinkedRow = ListedRow & {
  authorLinks: string | null;
  tagRefs: unknown;
  imageLinks: number | string;
};

// The row is read by name, never copied by rest: see toArticle.
export function foundArticle(row: LinkedRow): FoundArticle {
  const tags: TagRef[] = tagRefsIn(row.tagRefs);
  return {
    article: toArticle(
      row,
      idsInOrder(row.authorLinks),
      tags.map((t) => t.id),
    ),
    tags,
    // count(*) is a bigint on PostgreSQL, which the driver hands over as text.
    linksImages: Number(row.imageLinks) > 0,
  };
}
