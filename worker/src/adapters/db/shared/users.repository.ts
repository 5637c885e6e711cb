import { and, eq, ne, sql } from 'drizzle-orm';
import { DomainError } from '../../../core/domain/errors.js';
import type { NewUser, User } from '../../../core/domain/entities.js';
import type { UsersRepository } from '../../../ports/repositories.js';
import { guarded, hasNul, normalizeId, refuseNul, requireId } from './repository-support.js';
import type { SqlKit } from './sql-kit.js';

type UserRow = SqlKit['tables']['users']['$inferSelect'];

// Lookups by text re-check equality in JS: MySQL's collations ignore trailing
// spaces when comparing, the other databases do not.

function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    displayName: row.displayName,
    role: row.role,
    verified: row.verified,
    passwordHash: row.passwordHash,
    tokenVersion: row.tokenVersion,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function createUsersRepository(kit: SqlKit): UsersRepository {
  const { db } = kit;
  const { users } = kit.tables;
  const byId = kit.prepare(
    db.select().from(users).where(eq(users.id, sql.placeholder('id'))).limit(1),
    'users_by_id',
  );

  const repo: UsersRepository = {
    async create(user: NewUser) {
      const id = requireId(user.id, 'id');
      refuseNul({ email: user.email, displayName: user.displayName, passwordHash: user.passwordHash });
      try {
        await db.insert(users).values({
          id,
          email: user.email,
          displayName: user.displayName,
          role: user.role,
          verified: user.verified,
          passwordHash: user.passwordHash,
          tokenVersion: 0,
          ownerLock: user.role === 'owner' ? 1 : null,
          verificationCodeHash: user.verificationCodeHash,
          verificationExpiresAt: user.verificationExpiresAt,
          createdAt: user.createdAt,
          updatedAt: user.createdAt,
        });
      } catch (err) {
        if (!kit.isUniqueViolation(err)) throw err;
        const message = /owner_lock/.test(String(err) + String((err as Error).cause ?? ''))
          ? 'An owner already exists'
          : 'This e-mail address is already in use';
        throw new DomainError('conflict', message);
      }
    },

    async findById(id) {
      const key = normalizeId(id);
      if (key === null) return null;
      const [row] = await byId({ id: key });
      return row ? toUser(row) : null;
    },

    async findByEmail(email) {
      if (hasNul(email)) return null;
      const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      return row && row.email === email ? toUser(row) : null;
    },

    async hasVerifiedUser() {
      const rows = await db.select({ id: users.id }).from(users).where(eq(users.verified, true)).limit(1);
      return rows.length > 0;
    },

    async findByVerificationCode(codeHash) {
      if (hasNul(codeHash)) return null;
      const [row] = await db.select().from(users).where(eq(users.verificationCodeHash, codeHash)).limit(1);
      if (!row || row.verificationCodeHash !== codeHash) return null;
      // A code without an expiry should not exist; treat it as long expired.
      return { user: toUser(row), expiresAt: row.verificationExpiresAt ?? new Date(0) };
    },

    async setVerificationCode(userId, codeHash, expiresAt) {
      const id = normalizeId(userId);
      if (id === null) return;
      refuseNul({ codeHash });
      await db
        .update(users)
        .set({ verificationCodeHash: codeHash, verificationExpiresAt: expiresAt })
        .where(eq(users.id, id));
    },

    async verifyAsFirstOwner(userId, now) {
      const id = normalizeId(userId);
      if (id === null) return false;
      // The claim is only visible to the cleanup statement once the claim
      // itself succeeded, so a failed claim (no such user) deletes nothing.
      // MySQL refuses a subquery on the table being deleted from unless it is
      // wrapped in a derived table, hence the double select.
      const claimed = sql`exists (select 1 from (select ${users.id} from ${users} where ${users.id} = ${id} and ${users.ownerLock} = 1) as owner_claim)`;
      let results: unknown[];
      try {
        results = await kit.atomic((tx) => [
          // Locks every pending registration in one consistent order before
          // claiming, so concurrent claimers queue up here instead of each
          // locking its own row and then deadlocking over the others'.
          tx
            .update(users)
            .set({ tokenVersion: sql`${users.tokenVersion}` })
            .where(eq(users.verified, false)),
          // The owner_lock unique index lets only one claim ever commit.
          tx
            .update(users)
            .set({
              verified: true,
              role: 'owner',
              ownerLock: 1,
              verificationCodeHash: null,
              verificationExpiresAt: null,
              updatedAt: now,
            })
            .where(and(eq(users.id, id), eq(users.verified, false))),
          tx.delete(users).where(and(eq(users.verified, false), ne(users.id, id), claimed)),
        ]);
      } catch (err) {
        if (kit.isUniqueViolation(err)) return false;
        throw err;
      }
      return kit.affectedRows(results[1]) === 1;
    },

    async delete(id) {
      const key = normalizeId(id);
      if (key === null) return false;
      return kit.affectedRows(await db.delete(users).where(eq(users.id, key))) > 0;
    },
  };
  return guarded(kit, repo);
}
