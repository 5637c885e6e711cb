import { and, eq, isNull } from 'drizzle-orm';
import { normalizeId, refuseOversizedRow } from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { DomainError } from '../../core/domain/errors.js';

/**
 * The rendered html is stored with every body, so that no read renders:
 * where the database's row limit (D1) has no room for both, the write is
 * refused (413) rather than stored without it.
 */
export function storableHtml(
  kit: SqlKit,
  fields: Record<string, string | null | undefined>,
  html: string | null,
): string | null {
  if (html === null) return null;
  try {
    refuseOversizedRow(kit, { ...fields, html });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const message = `${err.message}, its body and the HTML rendered from it together; nothing was written`;
    throw new DomainError('payload_too_large', message, [{ path: 'body', message }]);
  }
  return html;
}

/**
 * Fills in the html of a row written before writes stored it, once: only
 * while it is still null at that version (a write meanwhile stored its own).
 * Where the row has no room for it (D1), the empty string is stored instead,
 * so that such a row is not rendered again on every read.
 */
export function createHtmlFill(kit: SqlKit) {
  const { articles } = kit.tables;
  return async (id: string, version: number, body: string, html: string): Promise<string> => {
    const key = normalizeId(id);
    if (key === null) return html;
    let kept = html;
    try {
      refuseOversizedRow(kit, { body, html });
    } catch {
      kept = '';
    }
    await kit.db
      .update(articles)
      .set({ html: kept })
      .where(and(eq(articles.id, key), eq(articles.version, version), isNull(articles.html)));
    return kept;
  };
}
