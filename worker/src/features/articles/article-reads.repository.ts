import { and, asc, desc, eq, getTableColumns, gt, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import { idsInOrder, orderedIdsSql } from '../../adapters/db/shared/ordered-ids.js';
import { normalizeId } from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { toArticle } from './article-row.repository.js';
import type { Article, ArticleLink } from './articles.port.js';

type Found = { article: Article; linksImages: boolean };

/**
 * The single reads: by id, by slug, and an article's neighbours. By id and
 * by slug read the article with its author and tag links and whether it
 * shows any image in one statement (one round trip), prepared once.
 */
export function createArticleReads(kit: SqlKit) {
  const { db } = kit;
  const { articles, articleAuthors, articleImages, articleTags } = kit.tables;
  const withLinks = () =>
    db
      .select({
        ...getTableColumns(articles),
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
      })
      .from(articles);
  // No LIMIT on any of them: each reads through a unique index, and SQLite
  // re-prepares a statement whose LIMIT is a bound value on every run (docs/benchmarks.md).
  const byId = kit.prepare(withLinks().where(eq(articles.id, sql.placeholder('id'))), 'articles_by_id_with_links');
  const slug = eq(articles.slug, sql.placeholder('slug'));
  const bySlugInScope = kit.prepare(
    withLinks().where(and(eq(articles.slugScope, sql.placeholder('scope')), slug)),
    'articles_by_slug_in_scope_with_links',
  );
  // In any site: through articles_slug_idx (the unique index starts with the scope).
  const bySlugAnywhere = kit.prepare(withLinks().where(slug), 'articles_by_slug_with_links');

  type Row = Awaited<ReturnType<typeof byId>>[number];
  const found = ({ authorLinks, tagLinks, imageLinks, ...row }: Row): Found => ({
    article: toArticle(row, idsInOrder(authorLinks), idsInOrder(tagLinks)),
    // count(*) is a bigint on PostgreSQL, which the driver hands over as text.
    linksImages: Number(imageLinks) > 0,
  });

  /** The online article of the same site published right after (`next`) or before this one. */
  async function neighbour(a: Pick<Article, 'id' | 'siteId' | 'publishedAt'>, later: boolean) {
    if (a.publishedAt === null) return null;
    const cmp = later ? gt : lt;
    const o = later ? asc : desc;
    const site: SQL = a.siteId === null ? isNull(articles.siteId) : eq(articles.siteId, a.siteId);
    const [row] = await db
      .select({ id: articles.id, slug: articles.slug, title: articles.title })
      .from(articles)
      .where(
        and(
          eq(articles.status, 'online'),
          site,
          ne(articles.id, a.id),
          or(
            cmp(articles.publishedAt, a.publishedAt),
            and(eq(articles.publishedAt, a.publishedAt), cmp(articles.id, a.id)),
          ),
        ),
      )
      .orderBy(o(articles.publishedAt), o(articles.id))
      .limit(1);
    return (row as ArticleLink | undefined) ?? null;
  }

  return {
    async findForRead(id: string): Promise<Found | null> {
      const key = normalizeId(id);
      if (key === null) return null;
      const [row] = await byId({ id: key });
      return row ? found(row) : null;
    },

    async findBySlug(slug: string, siteId?: string | null): Promise<Found[]> {
      if (siteId === undefined) return (await bySlugAnywhere({ slug })).map(found);
      const scope = siteId === null ? '' : normalizeId(siteId);
      // A malformed site id names no site: nothing found, as for an unknown one.
      if (scope === null) return [];
      return (await bySlugInScope({ scope, slug })).map(found);
    },

    async adjacent(a: Pick<Article, 'id' | 'siteId' | 'publishedAt'>) {
      const [next, previous] = await Promise.all([neighbour(a, true), neighbour(a, false)]);
      return { next, previous };
    },
  };
}
