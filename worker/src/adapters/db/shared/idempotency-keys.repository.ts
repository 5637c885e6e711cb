import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { IdempotencyKeysRepository, KeptAnswer } from '../../../ports/repositories.js';
import { guarded, refuseNul, refuseOversizedRow } from './repository-support.js';
import type { SqlKit } from './sql-kit.js';
import { guardHolds, rowsOf } from './unit-of-work.js';

function parseHeaders(text: string | null): Record<string, string> {
  try {
    const value: unknown = JSON.parse(text ?? '{}');
    if (typeof value !== 'object' || value === null) return {};
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

/** Idempotency-Key records, for any dialect (ports/repositories.ts). */
export function createIdempotencyKeysRepository(kit: SqlKit): IdempotencyKeysRepository {
  const { db } = kit;
  const { idempotencyKeys: keys } = kit.tables;
  const of = (scope: string, key: string) => and(eq(keys.scope, scope), eq(keys.key, key));

  async function holder(scope: string, key: string) {
    const [row] = await db
      .select({ fingerprint: keys.fingerprint, status: keys.status, headers: keys.headers, body: keys.body })
      .from(keys)
      .where(of(scope, key))
      .limit(1);
    if (!row) return null;
    const answer: KeptAnswer | null =
      row.status === null ? null : { status: row.status, headers: parseHeaders(row.headers), body: row.body ?? '' };
    return { fingerprint: row.fingerprint, answer };
  }

  const repo: IdempotencyKeysRepository = {
    async claim(scope, key, fingerprint, now, expiresAt, abandonedBefore) {
      refuseNul({ scope, key });
      await db
        .delete(keys)
        .where(
          and(
            of(scope, key),
            or(lt(keys.expiresAt, now), and(isNull(keys.status), lt(keys.createdAt, abandonedBefore))),
          ),
        );
      try {
        await db
          .insert(keys)
          .values({ scope, key, fingerprint, status: null, headers: null, body: null, createdAt: now, expiresAt });
        return null;
      } catch (err) {
        if (!kit.isUniqueViolation(err)) throw err;
      }
      // Held by another request; if it let go meanwhile, it is still one in flight a moment ago.
      return (await holder(scope, key)) ?? { fingerprint, answer: null };
    },

    async answerRows(scope, key, answer) {
      const headers = JSON.stringify(answer.headers);
      // Kept beside the created row: where the store bounds a row (D1), an answer it cannot keep is refused as too large.
      refuseOversizedRow(kit, { body: answer.body, headers });
      return rowsOf((tx, guard) => [
        tx
          .update(keys)
          .set({ status: answer.status, headers, body: answer.body })
          .where(and(of(scope, key), isNull(keys.status), guardHolds(tx, guard))),
      ]);
    },

    async release(scope, key) {
      await db.delete(keys).where(and(of(scope, key), isNull(keys.status)));
    },
  };
  return guarded(kit, repo);
}
