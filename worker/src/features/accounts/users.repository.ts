import { and, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import {
  guarded,
  hasNul,
  normalizeId,
  refuseNul,
  requireId,
  requireLimit,
} from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { DomainError } from '../../core/domain/errors.js';
import { registrationGate } from './registration-gate.store.js';
import type { NewUser, User, UsersRepository } from './users.port.js';

type UserRow = SqlKit['tables']['users']['$inferSelect'];

// Lookups by text re-check equality in JS: MySQL's collations ignore trailing
// spaces when comparing, the other databases do not.

/**
 * A mapper that changes shape: User (auth/user.ts, platform code that may not
 * import the tables) is the row without the owner lock and the code hashes,
 * which stay in storage; the compiler checks each field against the row.
 */
export function toUser(row: UserRow): User {
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
  const gate = registrationGate(kit);
  const byId = kit.prepare(
    db
      .select()
      .from(users)
      // No LIMIT: the primary key; a bound LIMIT makes SQLite re-prepare on every run.
      .where(eq(users.id, sql.placeholder('id'))),
    'users_by_id',
  );

  const rowOf = (user: NewUser) => {
    const id = requireId(user.id, 'id');
    refuseNul({ email: user.email, displayName: user.displayName, passwordHash: user.passwordHash });
    return {
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
    };
  };
  const conflict = (err: unknown) =>
    new DomainError(
      'conflict',
      /owner_lock/.test(String(err) + String((err as Error).cause ?? ''))
        ? 'An owner already exists'
        : 'This e-mail address is already in use',
    );

  const repo: UsersRepository = {
    async create(user: NewUser) {
      const row = rowOf(user);
      try {
        await db.insert(users).values(row);
      } catch (err) {
        if (!kit.isUniqueViolation(err)) throw err;
        throw conflict(err);
      }
    },

    async createRegistrant(user: NewUser) {
      const row = rowOf({ ...user, role: 'admin', verified: false });
      await gate.ensure(user.createdAt);
      let results: unknown[];
      try {
        results = await kit.atomic((tx) => [
          gate.pass(tx, user.createdAt),
          tx.insert(users).values(row),
          // Taken back at once when registration closed meanwhile: a D1
          // batch cannot branch, so the condition lives in the statement.
          tx.delete(users).where(and(eq(users.id, row.id), gate.closed())),
        ]);
      } catch (err) {
        if (!kit.isUniqueViolation(err)) throw err;
        // The address may belong to the account that closed registration.
        if (await repo.hasVerifiedUser()) return false;
        throw conflict(err);
      }
      return kit.affectedRows(results[2]) === 0;
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
      await gate.ensure(now);
      let results: unknown[];
      try {
        results = await kit.atomic((tx) => [
          // Concurrent claimers and registrations queue here, in one order,
          // instead of each locking rows of its own and deadlocking over the
          // others' (and a registration in flight cannot slip past the
          // cleanup below: see registration-gate.store.ts).
          gate.pass(tx, now),
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

    async deleteUnverified(id) {
      const key = normalizeId(id);
      if (key === null) return false;
      // One statement: an account verified a moment ago is never deleted.
      return kit.affectedRows(await db.delete(users).where(and(eq(users.id, key), eq(users.verified, false)))) > 0;
    },

    async list({ limit, beforeId }) {
      const rows = await db
        .select()
        .from(users)
        .where(beforeId === undefined ? undefined : lt(users.id, requireId(beforeId, 'cursor')))
        .orderBy(desc(users.id))
        .limit(requireLimit(limit));
      return rows.map(toUser);
    },

    async update(id, patch, now) {
      const key = normalizeId(id);
      if (key === null) return null;
      refuseNul({ displayName: patch.displayName });
      const set = { ...(patch.displayName !== undefined && { displayName: patch.displayName }), updatedAt: now };
      if (kit.affectedRows(await db.update(users).set(set).where(eq(users.id, key))) === 0) return null;
      return repo.findById(key);
    },

    async setPassword(id, passwordHash, now) {
      const key = normalizeId(id);
      if (key === null) return false;
      refuseNul({ passwordHash });
      const result = await db
        .update(users)
        // A reset code asked for before the change must not outlive it.
        .set({
          passwordHash,
          tokenVersion: sql`${users.tokenVersion} + 1`,
          resetCodeHash: null,
          resetExpiresAt: null,
          updatedAt: now,
        })
        .where(eq(users.id, key));
      return kit.affectedRows(result) > 0;
    },

    async setResetCode(userId, codeHash, expiresAt) {
      const id = normalizeId(userId);
      if (id === null) return;
      refuseNul({ codeHash });
      await db.update(users).set({ resetCodeHash: codeHash, resetExpiresAt: expiresAt }).where(eq(users.id, id));
    },

    async resetPassword(codeHash, passwordHash, now) {
      if (hasNul(codeHash)) return null;
      refuseNul({ passwordHash });
      const [row] = await db
        .select({ id: users.id, code: users.resetCodeHash })
        .from(users)
        .where(eq(users.resetCodeHash, codeHash))
        .limit(1);
      if (!row || row.code !== codeHash) return null;
      // The conditional update decides: of two concurrent calls, the second
      // finds the code already cleared (row locks make it wait and re-check).
      const result = await db
        .update(users)
        .set({
          passwordHash,
          tokenVersion: sql`${users.tokenVersion} + 1`,
          resetCodeHash: null,
          resetExpiresAt: null,
          updatedAt: now,
        })
        .where(and(eq(users.id, row.id), eq(users.resetCodeHash, codeHash), gt(users.resetExpiresAt, now)));
      return kit.affectedRows(result) === 1 ? row.id : null;
    },

    async transferOwnership(fromId, toId, now) {
      const from = normalizeId(fromId);
      const to = normalizeId(toId);
      if (from === null || to === null || from === to) return false;
      // Without an owner at all, the promotion below could not tell that the
      // demotion did nothing; `from` must hold ownership to begin with.
      const owner = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, from), eq(users.ownerLock, 1)))
        .limit(1);
      if (owner.length === 0) return false;
      // Two statements, because owner_lock is unique and checked row by row:
      // the old owner lets go first, then the new one takes it only if nobody
      // holds it. Both are conditional (a D1 batch cannot branch), and MySQL
      // wants subqueries on the updated table wrapped in a derived table.
      const target = db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, to), eq(users.verified, true)));
      const holder = db.select({ id: users.id }).from(users).where(eq(users.ownerLock, 1));
      const released = db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, from), isNull(users.ownerLock)));
      let results: unknown[];
      try {
        results = await kit.atomic((tx) => [
          // Locks the new owner's row first, so it cannot be deleted between
          // the demotion and the promotion (a no-op write, like verifyAsFirstOwner's).
          tx
            .update(users)
            .set({ tokenVersion: sql`${users.tokenVersion}` })
            .where(and(eq(users.id, to), eq(users.verified, true))),
          tx
            .update(users)
            .set({ role: 'admin', ownerLock: null, updatedAt: now })
            .where(
              and(
                eq(users.id, from),
                eq(users.ownerLock, 1),
                sql`exists (select 1 from (${target}) as transfer_target)`,
              ),
            ),
          tx
            .update(users)
            .set({ role: 'owner', ownerLock: 1, updatedAt: now })
            .where(
              and(
                eq(users.id, to),
                eq(users.verified, true),
                sql`not exists (select 1 from (${holder}) as transfer_holder)`,
                sql`exists (select 1 from (${released}) as transfer_released)`,
              ),
            ),
        ]);
      } catch (err) {
        // Someone else took ownership meanwhile: the unique index refused, all rolled back.
        if (kit.isUniqueViolation(err)) return false;
        throw err;
      }
      return kit.affectedRows(results[2]) === 1;
    },
  };
  return guarded(kit, repo);
}
