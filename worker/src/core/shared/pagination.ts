import type { Page } from '../../wire/pagination.schema.js';
import { DomainError } from '../domain/errors.js';
import { base64url } from './crypto.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Cursors are opaque to clients: the base64url of the last id of the page. */
export function encodeCursor(id: string): string {
  return base64url(new TextEncoder().encode(id));
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  let id = '';
  try {
    id = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    // fall through to the uniform error below
  }
  if (!UUID.test(id)) {
    throw new DomainError('invalid_request', 'cursor is not one this server gave out', [
      { path: 'cursor', message: 'cursor is not one this server gave out' },
    ]);
  }
  return id;
}

/** Repositories are asked for limit + 1 rows so that a full last page has no dangling cursor. */
export function toPage<T extends { id: string }, D>(rows: T[], limit: number, map: (row: T) => D): Page<D> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items: items.map(map), nextCursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}
