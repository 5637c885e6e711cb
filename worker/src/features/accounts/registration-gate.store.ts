import { eq, sql } from 'drizzle-orm';
import type { SqlDb, SqlKit } from '../../adapters/db/shared/sql-kit.js';

/**
 * The row of system_state that registrations and first verifications queue
 * on. Both write it first in their transaction, so on MySQL and PostgreSQL
 * the row lock orders them: a registration either commits before a
 * verification starts (and that verification deletes it) or waits for the
 * verification to commit and then sees the verified account. SQLite and D1
 * run one write at a time anyway. (Without it, a registration that inserted
 * between the verification's cleanup and its commit survived, even with a
 * conditional insert: each statement saw the other's work uncommitted.)
 */
const REGISTRATION_GATE = 'registration.gate';

export function registrationGate(kit: SqlKit) {
  const { db } = kit;
  const { users, systemState } = kit.tables;
  return {
    /** The row exists before anyone queues on it (an UPDATE of no row locks nothing). */
    async ensure(now: Date): Promise<void> {
      const [row] = await db
        .select({ key: systemState.key })
        .from(systemState)
        .where(eq(systemState.key, REGISTRATION_GATE))
        .limit(1);
      if (row) return;
      try {
        await db.insert(systemState).values({ key: REGISTRATION_GATE, value: '{}', version: 0, updatedAt: now });
      } catch (err) {
        // Another request created it a moment ago: just as good.
        if (!kit.isUniqueViolation(err)) throw err;
      }
    },

    /** The first statement of a registration's or a first verification's transaction. */
    pass: (tx: SqlDb, now: Date) =>
      tx
        .update(systemState)
        .set({ version: sql`${systemState.version} + 1`, updatedAt: now })
        .where(eq(systemState.key, REGISTRATION_GATE)),

    /** True in SQL once a verified account exists (wrapped for MySQL, which refuses the updated table in a plain subquery). */
    closed: () =>
      sql`exists (select 1 from (${db.select({ id: users.id }).from(users).where(eq(users.verified, true))}) as verified_user)`,
  };
}
