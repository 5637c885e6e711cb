import { sql } from 'drizzle-orm';
import { idsInOrder, orderedIdsSql } from '../../adapters/db/shared/ordered-ids.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { type ListedRow, toArticle } from './article-row.repository.js';
import type { Article } from './articles.port.js';

/** An article as a read answers it, and whether it shows any image: the read asks for images only then. */
export type FoundArticle = { article: Article; linksImages: boolean };

/**
 * The columns that carry an article's author and tag links, and whether it
 * shows an image, in the article's own statement: a single read and a list
 * page are each one statement (one round trip on D1 and on a server
 * database) instead of one more per link table.
 */
export function articleLinkColumns(kit: SqlKit) {
  const { articles, articleAuthors, articleImages, articleTags } = kit.tables;
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
    tagLinks: orderedIdsSql(
      kit,
      { table: articleTags, position: articleTags.position, id: articleTags.tagId, owner: articleTags.articleId },
      articles.id,
    ),
    imageLinks: sql<
      number | string
    >`(select count(*) from ${articleImages} where ${articleImages.articleId} = ${articles.id})`,
  };
}

type LinkedRow = ListedRow & {
  authorLinks: string | null;
  tagLinks: string | null;
  imageLinks: number | string;
};

export const foundArticle = ({ authorLinks, tagLinks, imageLinks, ...row }: LinkedRow): FoundArticle => ({
  article: toArticle(row, idsInOrder(authorLinks), idsInOrder(tagLinks)),
  // count(*) is a bigint on PostgreSQL, which the driver hands over as text.
  linksImages: Number(imageLinks) > 0,
});
