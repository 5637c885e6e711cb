import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gt,
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
import type { ArticleListPosition, ArticleListQuery } from './articles.port.js';

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
  /** A tag's slug. */
  tag?: string | undefined;
  authorId?: string | undefined;
  pattern?: string | undefined;
  slug?: string | undefined;
}

/**
 * The list read: filters, then keyset paging in the asked order. Newest or
 * oldest first by creation (id order) is a prepared statement per filter
 * combination, values as placeholders; the other sorts bind their values
 * (timestamps through each dialect's column encoder) in a statement built
 * per call.
 */
export function createArticleListRead(kit: SqlKit, carryingTag: (slug: string | Placeholder) => SQL) {
  const { db } = kit;
  const { articles, articleAuthors } = kit.tables;
  const dir = (order: SortOrder) => (order === 'asc' ? asc : desc);
  const past = (order: SortOrder) => (order === 'asc' ? gt : lt);
  // lower() on both sides: LIKE alone ignores case on SQLite and MySQL but not on PostgreSQL.
  const titleKey = sql`lower(${articles.title})`;

  /** `bind` turns a value into a placeholder (prepared) or a bound parameter (built per call). */
  function conditions(f: Filters, bind: (name: keyof Filters, value: string) => unknown): (SQL | undefined)[] {
    const b = (name: keyof Filters) => {
      const value = f[name];
      return value === undefined ? undefined : bind(name, value);
    };
    const status = b('status');
    const site = b('siteId');
    const tag = b('tag');
    const author = b('authorId');
    const pattern = b('pattern');
    const slug = b('slug');
    return [
      slug === undefined ? undefined : eq(articles.slug, slug as never),
      status === undefined ? undefined : eq(articles.status, status as never),
      site === undefined ? undefined : eq(articles.siteId, site as never),
      tag === undefined ? undefined : carryingTag(tag as string | Placeholder),
      author === undefined
        ? undefined
        : inArray(
            articles.id,
            db
              .select({ id: articleAuthors.articleId })
              .from(articleAuthors)
              .where(eq(articleAuthors.authorId, author as never)),
          ),
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
    const flags = [f.status, f.siteId, f.tag, f.authorId, f.pattern, f.slug]
      .map((v) => Number(v !== undefined))
      .join('');
    const name = `articles_list_${flags}${Number(before)}${Number(withHtml)}_${order}`;
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

  /** Order and "after this article" for the sorts other than creation. */
  function sortedBy(sort: Exclude<ArticleSort, 'createdAt'>, order: SortOrder, after?: ArticleListPosition) {
    const cmp = past(order);
    const o = dir(order);
    const tieBreak = (sameValue: SQL | undefined) => (after ? and(sameValue, cmp(articles.id, after.id)) : undefined);
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

  return async function listRows(query: ArticleListQuery): Promise<ListedRow[]> {
    const limit = requireLimit(query.limit);
    const siteId = query.siteId === undefined ? undefined : normalizeId(query.siteId);
    const authorId = query.authorId === undefined ? undefined : normalizeId(query.authorId);
    // A malformed id names nothing: an empty page, as for an unknown one.
    if (siteId === null || authorId === null) return [];
    const filters: Filters = {
      status: query.status,
      siteId,
      tag: query.tag,
      authorId,
      pattern: query.text === undefined || query.text === '' ? undefined : containsPattern('q', query.text),
      slug: query.slug,
    };
    const withHtml = query.withHtml === true;
    const sort = query.sort ?? 'createdAt';
    const order = query.order ?? 'desc';
    const afterId = query.after?.id ?? query.beforeId;
    const before = afterId === undefined ? undefined : requireId(afterId, 'cursor');
    if (sort === 'createdAt') {
      return byIdRead(filters, before !== undefined, order, withHtml)({ ...filters, before, limit });
    }
    const after = before === undefined ? undefined : { id: before, value: query.after?.value ?? null };
    const { orderBy, keyset } = sortedBy(sort, order, after);
    return db
      .select(columns(withHtml))
      .from(articles)
      .where(and(...conditions(filters, (_, value) => value), keyset))
      .orderBy(...orderBy)
      .limit(limit);
  };
}
