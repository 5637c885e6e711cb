import { and, eq, gt, lte, or } from 'drizzle-orm';
import type { LeasesRepository } from '../../../ports/repositories.js';
import { guarded, refuseNul } from './repository-support.js';
import type { SqlKit } from './sql-kit.js';

/**
 * One row per lease. Taking it is one conditional UPDATE (free, expired or
 * ours), else one INSERT: the database's row lock and primary key decide
 * between racers, so no dialect needs SELECT … FOR UPDATE or upserts.
 */
export function createLeasesRepository(kit: SqlKit): LeasesRepository {
  const { db } = kit;
  const { leases } = kit.tables;

  const repo: LeasesRepository = {
    async acquire(name, holder, now, expiresAt) {
      refuseNul({ name, holder });
      const taken = await db
        .update(leases)
        .set({ holder, expiresAt })
        .where(and(eq(leases.name, name), or(lte(leases.expiresAt, now), eq(leases.holder, holder))));
      if (kit.affectedRows(taken) > 0) return true;
      try {
        await db.insert(leases).values({ name, holder, expiresAt });
        return true;
      } catch (err) {
        // The row exists and someone else holds it unexpired (or just took it).
        if (kit.isUniqueViolation(err)) return false;
        throw err;
      }
    },

    async holder(name, now) {
      refuseNul({ name });
      const [row] = await db
        .select({ holder: leases.holder })
        .from(leases)
        .where(and(eq(leases.name, name), gt(leases.expiresAt, now)))
        .limit(1);
      return row?.holder ?? null;
    },

    async release(name, holder) {
      refuseNul({ name, holder });
      await db.delete(leases).where(and(eq(leases.name, name), eq(leases.holder, holder)));
    },
  };
  return guarded(kit, repo);
}
