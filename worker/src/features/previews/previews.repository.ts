import { asc, eq, inArray, lte } from 'drizzle-orm';
import { guarded, normalizeId, requireId, requireLimit } from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { notFound } from '../../core/domain/errors.js';
import type { PreviewTokensRepository } from './previews.port.js';

const HASH = /^[0-9a-f]{64}$/;

export function createPreviewTokensRepository(kit: SqlKit): PreviewTokensRepository {
  const { db } = kit;
  const { previewTokens: tokens } = kit.tables;

  const repo: PreviewTokensRepository = {
    async create(token) {
      try {
        await db.insert(tokens).values({
          id: requireId(token.id, 'id'),
          articleId: requireId(token.articleId, 'articleId'),
          tokenHash: token.tokenHash,
          expiresAt: token.expiresAt,
          createdAt: token.createdAt,
        });
      } catch (err) {
        if (kit.isForeignKeyViolation(err)) throw notFound();
        throw err;
      }
    },

    async findByHash(tokenHash) {
      if (!HASH.test(tokenHash)) return null;
      const [row] = await db.select().from(tokens).where(eq(tokens.tokenHash, tokenHash)).limit(1);
      return row ?? null;
    },

    async revokeAll(articleId) {
      const id = normalizeId(articleId);
      if (id === null) return 0;
      return kit.affectedRows(await db.delete(tokens).where(eq(tokens.articleId, id)));
    },

    async pruneExpired(now, limit) {
      // Ids first: MySQL allows no LIMIT in an IN subquery.
      const rows = await db
        .select({ id: tokens.id })
        .from(tokens)
        .where(lte(tokens.expiresAt, now))
        .orderBy(asc(tokens.expiresAt))
        .limit(requireLimit(limit));
      if (rows.length === 0) return 0;
      return kit.affectedRows(
        await db.delete(tokens).where(
          inArray(
            tokens.id,
            rows.map((r) => r.id),
          ),
        ),
      );
    },
  };
  return guarded(kit, repo);
}
