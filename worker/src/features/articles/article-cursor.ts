import { DomainError } from '../../core/domain/errors.js';
import { base64url, fromBase64 } from '../../core/shared/crypto.js';
import { decodeCursor, encodeCursor } from '../../core/shared/pagination.js';
import type { ArticleSort, SortOrder } from './article.schema.js';
import type { Article, ArticleListPosition } from './articles.port.js';

/**
 * Cursors of the article list. Newest first by creation (the default) keeps
 * the plain id cursor every list gives out (ids are UUIDv7, made at
 * creation, so id order is creation order). Any other sort or order carries
 * what keyset paging needs: the sort and order it belongs to, the last
 * article's sort value and its id (the tie-break), so the next page starts
 * exactly after that article even when others share its value.
 */

type Encoded = [ArticleSort, SortOrder, string | number | null, string];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function sortValue(sort: ArticleSort, article: Article): string | number | null {
  if (sort === 'title') return article.title;
  if (sort === 'updatedAt') return article.updatedAt.getTime();
  if (sort === 'publishedAt') return article.publishedAt ? article.publishedAt.getTime() : null;
  return null;
}

export function encodeArticleCursor(sort: ArticleSort, order: SortOrder, article: Article): string {
  if (sort === 'createdAt' && order === 'desc') return encodeCursor(article.id);
  const encoded: Encoded = [sort, order, sortValue(sort, article), article.id];
  return base64url(new TextEncoder().encode(JSON.stringify(encoded)));
}

const foreign = () =>
  new DomainError('invalid_request', 'cursor is not one this server gave out', [
    { path: 'cursor', message: 'cursor is not one this server gave out' },
  ]);

const otherSort = () =>
  new DomainError('invalid_request', 'cursor belongs to another sort or order; start again without it', [
    { path: 'cursor', message: 'cursor belongs to another sort or order; start again without it' },
  ]);

function validValue(sort: ArticleSort, value: unknown): value is string | number | null {
  if (sort === 'title') return typeof value === 'string' && value.length <= 200;
  if (sort === 'createdAt') return value === null;
  if (sort === 'publishedAt' && value === null) return true;
  return typeof value === 'number' && Number.isSafeInteger(value);
}

function parse(cursor: string): unknown {
  const bytes = fromBase64(cursor);
  if (!bytes) return undefined;
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}

/** Where the previous page ended, for this sort and order; a cursor of another sort or order is a 400. */
export function decodeArticleCursor(
  cursor: string | undefined,
  sort: ArticleSort,
  order: SortOrder,
): ArticleListPosition | undefined {
  if (cursor === undefined) return undefined;
  const decoded = parse(cursor);
  if (!Array.isArray(decoded)) {
    // Not JSON: the plain id cursor of the default order (decodeCursor refuses anything else).
    const id = decodeCursor(cursor);
    if (sort !== 'createdAt' || order !== 'desc') throw otherSort();
    return id === undefined ? undefined : { id, value: null };
  }
  const [s, o, value, id] = decoded as unknown[];
  if (decoded.length !== 4 || typeof id !== 'string' || !UUID.test(id)) throw foreign();
  if (s !== sort || o !== order) throw otherSort();
  if (!validValue(sort, value)) throw foreign();
  return { id, value: typeof value === 'number' ? new Date(value) : value };
}
