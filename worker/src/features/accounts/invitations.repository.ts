import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import {
  guarded,
  hasNul,
  invalid,
  normalizeId,
  refuseNul,
  requireId,
  requireLimit,
} from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { DomainError } from '../../core/domain/errors.js';
import type { Invitation, InvitationsRepository } from './invitations.port.js';
import type { User } from './users.port.js';

const taken = () => new DomainError('conflict', 'This e-mail address is already in use or invited');

export function createInvitationsRepository(kit: SqlKit): InvitationsRepository {
  const { db } = kit;
  const { invitations, users } = kit.tables;

  async function findById(id: string): Promise<Invitation | null> {
    const key = normalizeId(id);
    if (key === null) return null;
    const [row] = await db.select().from(invitations).where(eq(invitations.id, key)).limit(1);
    return row ?? null;
  }

  const repo: InvitationsRepository = {
    findById,

    async create(invitation) {
      const id = requireId(invitation.id, 'id');
      const invitedBy = invitation.invitedBy === null ? null : requireId(invitation.invitedBy, 'invitedBy');
      refuseNul({ email: invitation.email, codeHash: invitation.codeHash });
      // A read, not a constraint: users and invitations are separate tables.
      // Enough here, because only the owner invites (registration is closed)
      // and accept() is protected by users.email itself.
      const [user] = await db
        .select({ email: users.email })
        .from(users)
        .where(eq(users.email, invitation.email))
        .limit(1);
      if (user && user.email === invitation.email) throw taken();
      try {
        await db.insert(invitations).values({
          id,
          email: invitation.email,
          role: invitation.role,
          codeHash: invitation.codeHash,
          expiresAt: invitation.expiresAt,
          createdAt: invitation.createdAt,
          invitedBy,
        });
      } catch (err) {
        if (kit.isUniqueViolation(err)) throw taken();
        if (kit.isForeignKeyViolation(err)) throw invalid('invitedBy', `user ${invitedBy} does not exist`);
        throw err;
      }
    },

    async list({ limit, beforeId }) {
      const rows = await db
        .select()
        .from(invitations)
        .where(beforeId === undefined ? undefined : lt(invitations.id, requireId(beforeId, 'cursor')))
        .orderBy(desc(invitations.id))
        .limit(requireLimit(limit));
      return rows;
    },

    async renew(id, codeHash, expiresAt, now) {
      const key = normalizeId(id);
      if (key === null) return null;
      refuseNul({ codeHash });
      const result = await db
        .update(invitations)
        .set({ codeHash, expiresAt, createdAt: now })
        .where(eq(invitations.id, key));
      if (kit.affectedRows(result) === 0) return null;
      return findById(key);
    },

    async delete(id) {
      const key = normalizeId(id);
      if (key === null) return false;
      return kit.affectedRows(await db.delete(invitations).where(eq(invitations.id, key))) > 0;
    },

    async accept(codeHash, now, makeUser) {
      if (hasNul(codeHash)) return null;
      const [row] = await db.select().from(invitations).where(eq(invitations.codeHash, codeHash)).limit(1);
      // MySQL compares ignoring trailing spaces; the other databases do not.
      if (!row || row.codeHash !== codeHash || row.expiresAt.getTime() <= now.getTime()) return null;
      const invitation = row;
      const made = makeUser(invitation);
      const id = requireId(made.id, 'id');
      refuseNul({ displayName: made.displayName, passwordHash: made.passwordHash });
      const user: User = {
        id,
        email: invitation.email,
        displayName: made.displayName,
        role: invitation.role,
        verified: true,
        passwordHash: made.passwordHash,
        tokenVersion: 0,
        createdAt: made.createdAt,
        updatedAt: made.createdAt,
      };
      // The invitation row as it must still be when the unit runs: same code,
      // unexpired. Both statements test it, so a D1 batch (which cannot
      // branch) does nothing at all when the invitation is gone, renewed or
      // expired. Racers that both saw it collide on users.email: one wins.
      const live = and(
        eq(invitations.id, invitation.id),
        eq(invitations.codeHash, codeHash),
        gt(invitations.expiresAt, now),
      );
      // Parameters encoded by the target column (dates, booleans differ per dialect).
      const param = sql.param;
      const source = (tx: typeof db) =>
        tx
          .select({
            id: sql`${param(user.id, users.id)}`.as('id'),
            email: invitations.email,
            displayName: sql`${param(user.displayName, users.displayName)}`.as('display_name'),
            role: invitations.role,
            verified: sql`${param(true, users.verified)}`.as('verified'),
            passwordHash: sql`${param(user.passwordHash, users.passwordHash)}`.as('password_hash'),
            tokenVersion: sql`0`.as('token_version'),
            ownerLock: sql`null`.as('owner_lock'),
            verificationCodeHash: sql`null`.as('verification_code_hash'),
            verificationExpiresAt: sql`null`.as('verification_expires_at'),
            resetCodeHash: sql`null`.as('reset_code_hash'),
            resetExpiresAt: sql`null`.as('reset_expires_at'),
            createdAt: sql`${param(user.createdAt, users.createdAt)}`.as('created_at'),
            updatedAt: sql`${param(user.updatedAt, users.updatedAt)}`.as('updated_at'),
          })
          .from(invitations)
          .where(live);
      let results: unknown[];
      try {
        results = await kit.atomic((tx) => [
          // Locks the invitation row before anything reads it, so racers queue
          // here instead of sharing read locks and deadlocking over the delete
          // (MySQL); the one behind finds the row gone. A no-op everywhere else.
          tx
            .update(invitations)
            .set({ codeHash: sql`${invitations.codeHash}` })
            .where(live),
          tx.insert(users).select(source(tx)),
          tx.delete(invitations).where(live),
        ]);
      } catch (err) {
        // Another accept of the same invitation got the e-mail first, or an
        // account with this e-mail exists: either way this code made nothing.
        if (kit.isUniqueViolation(err)) return null;
        throw err;
      }
      return kit.affectedRows(results[1]) === 1 ? user : null;
    },
  };
  return guarded(kit, repo);
}
