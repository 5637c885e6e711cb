import { and, eq, lte } from 'drizzle-orm';
import type { SystemStateRepository } from '../../../ports/repositories.js';
import { guarded, refuseNul } from './repository-support.js';
import type { SqlKit } from './sql-kit.js';

export function createSystemStateRepository(kit: SqlKit): SystemStateRepository {
  const { db } = kit;
  const { systemState: state } = kit.tables;

  const repo: SystemStateRepository = {
    async get(key) {
      const [row] = await db
        .select({ value: state.value, version: state.version })
        .from(state)
        .where(eq(state.key, key))
        .limit(1);
      return row ? { value: row.value, version: Number(row.version) } : null;
    },

    async save(key, value, version, now) {
      refuseNul({ key, value });
      // Update only over an equal or lower version; insert when there is no row.
      // Between the update and the read another writer may have inserted a
      // lower version (try the update again) or a higher one (we lost); a
      // racing insert loses to the unique key and tries again as an update.
      for (let attempt = 0; attempt < 5; attempt++) {
        const updated = await db
          .update(state)
          .set({ value, version, updatedAt: now })
          .where(and(eq(state.key, key), lte(state.version, version)));
        if (kit.affectedRows(updated) > 0) return true;
        const current = await repo.get(key);
        if (current && current.version > version) return false;
        if (current) continue;
        try {
          await db.insert(state).values({ key, value, version, updatedAt: now });
          return true;
        } catch (err) {
          if (!kit.isUniqueViolation(err)) throw err;
        }
      }
      return false;
    },
  };
  return guarded(kit, repo);
}
