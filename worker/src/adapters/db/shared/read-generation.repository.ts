import { eq, sql } from 'drizzle-orm';
import type { ReadGeneration } from '../../../ports/repositories.js';
import { guarded } from './repository-support.js';
import type { SqlKit } from './sql-kit.js';

/** The system_state row whose value names the public answers' generation. */
const KEY = 'publicReads.generation';

/**
 * The generation as a system_state row: one primary-key read, shared by
 * every instance on the database. Its value is a fresh id on each advance,
 * never a counter, so a database restored from an older copy cannot hand
 * out a generation an instance remembers with other answers.
 */
export function createReadGeneration(kit: SqlKit): ReadGeneration {
  const { db } = kit;
  const { systemState: state } = kit.tables;
  // No LIMIT: the key is the primary key, and SQLite re-prepares a statement whose LIMIT is bound on every run.
  const read = kit.prepare(
    db
      .select({ value: state.value })
      .from(state)
      .where(eq(state.key, sql.placeholder('key'))),
    'read_generation',
  );
  return guarded(kit, {
    async current() {
      const [row] = await read({ key: KEY });
      return row?.value ?? '';
    },
    async advance(now: Date) {
      const value = crypto.randomUUID();
      for (let attempt = 0; attempt < 3; attempt++) {
        const updated = await db
          .update(state)
          .set({ value, version: sql`${state.version} + 1`, updatedAt: now })
          .where(eq(state.key, KEY));
        if (kit.affectedRows(updated) > 0) return;
        try {
          await db.insert(state).values({ key: KEY, value, version: 1, updatedAt: now });
          return;
        } catch (err) {
          // Another instance made the row a moment ago: update it instead.
          if (!kit.isUniqueViolation(err)) throw err;
        }
      }
    },
  });
}
