import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  inArray,
  isNull,
  lt,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import {
  invalid,
  normalizeId,
  refuseNul,
  requireId,
  requireLimit,
} from '../../adapters/db/shared/repository-support.js';
import type { PreparedRead, SqlKit } from '../../adapters/db/shared/sql-kit.js';
import type { ArticleSort, SortOrder } from './article.schema.js';
import type { ArticleListFilter, ArticleListPosition, ArticleListQuery } from './articles.port.js';

type ArticleRow = SqlKit['tables']['articles']['$inferSelect'];
/** A row as lists read it: without `html` unless asked for (it is as large as the body). */
export type ListedRow = Omit<ArticleRow, 'html'> & { html?: string | null };

// D1 refuses LIKE patterns over 50 bytes; the same limit everywhere.
const MAX_LIKE_PATTERN_BYTES = 50;

/**
 * `%text%` for `LIKE … ESCAPE '!'`: the user's `%`, `_` and `!` are escaped
 * with `!`, one escape character every dialect reads the same way (a
 * backslash means different things in MySQL and PostgreSQL literals).
 */
export function containsPattern(path: string, text: string): string {
  refuseNul({ [path]: text });
  const pattern = `%${text.replace(/[!%_]/g, (ch) => `!${ch}`)}%`;
  if (new TextEncoder().encode(pattern).length > MAX_LIKE_PATTERN_BYTES) {
    throw invalid(path, `${path} is too long (at most ${MAX_LIKE_PATTERN_BYTES - 2} bytes, %, _ and ! counting twice)`);
  }
  return pattern;
}

interface Filters {
  status?: string | undefined;
  siteId?: string | undefined;
  /** Tags' slugs: every one must be carried. */
  tags?: string[] | undefined;
  authorId?: string | undefined;
  authorSlug?: string | undefined;
  pattern?: string | undefined;
  slug?: string | undefined;
  publishedAfter?: Date | undefined;
  publishedBefore?: Date | undefined;
}
type Named = Exclude<keyof Filters, 'tags' | 'publishedAfter' | 'publishedBefore'>;

/**
 * The list read: filters, then keyset (or offset) paging in the asked
 * order. Newest or oldest first by creation (id order) without a date
 * range or a page number is a prepared statement per filter combination,
 * values as placeholders; the rest bind their values (timestamps through
 * each dialect's column encoder) in a statement built per call.
 */
export function createArticleListRead(kit: SqlKit, carryingTag: (slug: string | Placeholder) => SQL) {
  const { db } = kit;
  const { articles, articleAuthors, authors } = kit.tables;
  const dir = (order: SortOrder) => (order === 'asc' ? asc : desc);
  const past = (order: SortOrder) => (order === 'asc' ? gt : lt);
  // lower() on both sides: LIKE alone ignores case on SQLite and MySQL but not on PostgreSQL.
  const titleKey = sql`lower(${articles.title})`;
  const credited = (where: SQL) =>
    inArray(articles.id, db.select({ id: articleAuthors.articleId }).from(articleAuthors).where(where));

  /** `bind` turns a value into a placeholder (prepared) or a bound parameter (built per call). */
  function conditions(f: Filters, bind: (name: string, value: string) => unknown): (SQL | undefined)[] {
    const b = (name: Named) => {
      const value = f[name];
      return value === undefined ? undefined : bind(name, value);
    };
    const status = b('status');
    const site = b('siteId');
    const author = b('authorId');
    const authorSlug = b('authorSlug');
    const pattern = b('pattern');
    const slug = b('slug');
    return [
      // Through a slug index (the (slug_scope, slug) unique one in a site,
      // articles_slug_idx in any), as a list of ids: given beside other
      // conditions, the slug would lose to their indexes and the read would
      // walk every article they match.
      slug === undefined
        ? undefined
        : inArray(
            articles.id,
            db
              .select({ id: articles.id })
              .from(articles)
              .where(
                and(
                  site === undefined ? undefined : eq(articles.slugScope, site as never),
                  eq(articles.slug, slug as never),
                ),
              ),
          ),
      status === undefined ? undefined : eq(articles.status, status as never),
      site === undefined ? undefined : eq(articles.siteId, site as never),
      ...(f.tags ?? []).map((tag, i) => carryingTag(bind(`tag${i}`, tag) as string | Placeholder)),
      author === undefined ? undefined : credited(eq(articleAuthors.authorId, author as never)),
      authorSlug === undefined
        ? undefined
        : credited(
            inArray(
              articleAuthors.authorId,
              db
                .select({ id: authors.id })
                .from(authors)
                .where(eq(authors.slug, authorSlug as never)),
            ),
          ),
      f.publishedAfter === undefined ? undefined : gte(articles.publishedAt, f.publishedAfter),
      f.publishedBefore === undefined ? undefined : lt(articles.publishedAt, f.publishedBefore),
      pattern === undefined
        ? undefined
        : or(
            sql`lower(${articles.title}) LIKE lower(${pattern}) ESCAPE '!'`,
            sql`lower(${articles.body}) LIKE lower(${pattern}) ESCAPE '!'`,
          ),
    ];
  }

  const { html: _html, ...listColumns } = getTableColumns(articles);
  const columns = (withHtml: boolean) => (withHtml ? getTableColumns(articles) : listColumns);

  const byIdReads = new Map<string, PreparedRead<ListedRow>>();
  function byIdRead(f: Filters, before: boolean, order: SortOrder, withHtml: boolean): PreparedRead<ListedRow> {
    const flags = [f.status, f.siteId, f.authorId, f.authorSlug, f.pattern, f.slug]
      .map((v) => Number(v !== undefined))
      .join('');
    const name = `articles_list_${flags}${f.tags?.length ?? 0}${Number(before)}${Number(withHtml)}_${order}`;
    let read = byIdReads.get(name);
    if (!read) {
      const where = [
        ...conditions(f, (n) => sql.placeholder(n)),
        before ? past(order)(articles.id, sql.placeholder('before')) : undefined,
      ];
      read = kit.prepare(
        db
          .select(columns(withHtml))
          .from(articles)
          .where(and(...where))
          .orderBy(dir(order)(articles.id))
          .limit(sql.placeholder('limit')),
        name,
      );
      byIdReads.set(name, read);
    }
    return read;
  }

  /** Order and "after this article" for any sort. */
  function sortedBy(sort: ArticleSort, order: SortOrder, after?: ArticleListPosition) {
    const cmp = past(order);
    const o = dir(order);
    const tieBreak = (sameValue: SQL | undefined) => (after ? and(sameValue, cmp(articles.id, after.id)) : undefined);
    if (sort === 'createdAt') {
      return { orderBy: [o(articles.id)], keyset: after && cmp(articles.id, after.id) };
    }
    if (sort === 'title') {
      const value = after ? sql`lower(${String(after.value)})` : undefined;
      return {
        orderBy: [o(titleKey), o(articles.id)],
        keyset: value && or(cmp(titleKey, value), tieBreak(eq(titleKey, value))),
      };
    }
    const column = sort === 'updatedAt' ? articles.updatedAt : articles.publishedAt;
    const value = after?.value instanceof Date ? after.value : null;
    // Never published comes last in either order (dialects disagree where nulls sort).
    const unpublishedLast = sql`case when ${column} is null then 1 else 0 end`;
    const keyset = !after
      ? undefined
      : value === null
        ? tieBreak(isNull(column))
        : or(...(sort === 'publishedAt' ? [isNull(column)] : []), cmp(column, value), tieBreak(eq(column, value)));
    return { orderBy: [asc(unpublishedLast), o(column), o(articles.id)], keyset };
  }

  /** The filters as the statements take them; null when an id names nothing (an empty answer). */
  function filtersOf(query: ArticleListFilter): Filters | null {
    const siteId = query.siteId === undefined ? undefined : normalizeId(query.siteId);
    const authorId = query.authorId === undefined ? undefined : normalizeId(query.authorId);
    // A malformed id names nothing: an empty page, as for an unknown one.
    if (siteId === null || authorId === null) return null;
    return {
      status: query.status,
      siteId,
      tags: query.tags === undefined || query.tags.length === 0 ? undefined : [...new Set(query.tags)],
      authorId,
      authorSlug: query.authorSlug,
      pattern: query.text === undefined || query.text === '' ? undefined : containsPattern('q', query.text),
      slug: query.slug,
      publishedAfter: query.publishedAfter,
      publishedBefore: query.publishedBefore,
    };
  }

  async function listRows(query: ArticleListQuery): Promise<ListedRow[]> {
    const limit = requireLimit(query.limit);
    const filters = filtersOf(query);
    if (filters === null) return [];
    const withHtml = query.withHtml === true;
    const sort = query.sort ?? 'createdAt';
    const order = query.order ?? 'desc';
    const afterId = query.after?.id ?? query.beforeId;
    const before = afterId === undefined ? undefined : requireId(afterId, 'cursor');
    const offset = query.offset ?? 0;
    if (!Number.isSafeInteger(offset) || offset < 0) throw invalid('page', 'page is out of range');
    const ranged = filters.publishedAfter !== undefined || filters.publishedBefore !== undefined;
    if (sort === 'createdAt' && !ranged && offset === 0) {
      const values: Record<string, unknown> = { ...filters, before, limit };
      for (const [i, tag] of (filters.tags ?? []).entries()) values[`tag${i}`] = tag;
      return byIdRead(filters, before !== undefined, order, withHtml)(values);
    }
    const after = before === undefined ? undefined : { id: before, value: query.after?.value ?? null };
    const { orderBy, keyset } = sortedBy(sort, order, after);
    const read = db
      .select(columns(withHtml))
      .from(articles)
      .where(and(...conditions(filters, (_, value) => value), keyset))
      .orderBy(...orderBy)
      .limit(limit);
    return offset > 0 ? read.offset(offset) : read;
  }

  /** `count(*)` over the same conditions: each filter's index narrows it as it narrows the list. */
  async function countRows(filter: ArticleListFilter): Promise<number> {
    const filters = filtersOf(filter);
    if (filters === null) return 0;
    const [row] = await db
      .select({ n: count() })
      .from(articles)
      .where(and(...conditions(filters, (_, value) => value)));
    return Number(row?.n ?? 0);
  }

  return { listRows, countRows };
}
