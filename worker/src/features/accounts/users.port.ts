import type { User } from '../../auth/user.js';
import type { Role } from './user.schema.js';

export type { User };

/** What the accounts core needs from storage, and the users it stores. Dates are Date objects, never strings. */

export interface NewUser {
  id: string;
  email: string;
  displayName: string | null;
  role: Role;
  verified: boolean;
  passwordHash: string;
  createdAt: Date;
  /** sha256 (hex) of the verification code; null for accounts created verified. */
  verificationCodeHash: string | null;
  verificationExpiresAt: Date | null;
}

/**
 * Persistence ports. Every adapter (D1, Node SQLite, MariaDB/MySQL, PostgreSQL)
 * passes the same contract suite in test/contract/. Adapters translate driver
 * errors into DomainError: unique violations → 'conflict', an unreachable
 * database → 'unavailable'.
 */
export interface UsersRepository {
  /** Throws DomainError('conflict') when the e-mail is taken. */
  create(user: NewUser): Promise<void>;
  /**
   * A registration: creates `user` as an unverified `admin` only while no
   * verified account exists, and returns false (nothing written) otherwise.
   * Decided by the database together with `verifyAsFirstOwner`: a
   * registrant created while a first verification is in flight is either
   * deleted by it or refused, never left behind. A taken e-mail →
   * DomainError('conflict').
   */
  createRegistrant(user: NewUser): Promise<boolean>;
  findById(id: string): Promise<User | null>;
  /** `email` is already lower case. */
  findByEmail(email: string): Promise<User | null>;
  hasVerifiedUser(): Promise<boolean>;
  findByVerificationCode(codeHash: string): Promise<{ user: User; expiresAt: Date } | null>;
  /** Replaces the code: the previous one stops working. */
  setVerificationCode(userId: string, codeHash: string, expiresAt: Date): Promise<void>;
  /**
   * The first verification: marks the account verified and `owner`, clears its
   * code, and deletes every other unverified account (pending registrations
   * are cancelled when registration closes) — all or nothing. Returns false,
   * changing nothing, when an owner already exists; the database enforces
   * that there is never more than one owner, so two racers cannot both win.
   */
  verifyAsFirstOwner(userId: string, now: Date): Promise<boolean>;
  /** Returns false when no such user. */
  delete(id: string): Promise<boolean>;
  /** Deletes the account only while it is unverified (cancelled registration). False otherwise. */
  deleteUnverified(id: string): Promise<boolean>;
  /** Newest first (id descending), keyset paged like articles. */
  list(query: { limit: number; beforeId?: string }): Promise<User[]>;
  /** Null when unknown. */
  update(id: string, patch: { displayName?: string | null }, now: Date): Promise<User | null>;
  /**
   * Sets the password, bumps the token version (every earlier session ends)
   * and clears any outstanding reset code. False when unknown.
   */
  setPassword(id: string, passwordHash: string, now: Date): Promise<boolean>;
  /** Replaces the reset code: the previous one stops working. */
  setResetCode(userId: string, codeHash: string, expiresAt: Date): Promise<void>;
  /**
   * Single use, all or nothing: where a user holds this unexpired reset code,
   * sets the password, clears the code and bumps the token version. Returns
   * that user's id, or null (unknown, expired or already used code). Two
   * concurrent calls with one code: exactly one succeeds.
   */
  resetPassword(codeHash: string, passwordHash: string, now: Date): Promise<string | null>;
  /**
   * Moves ownership from `fromId` (must be the owner) to `toId` (must be a
   * verified account), all or nothing: the old owner becomes 'admin'.
   * False, changing nothing, when either condition does not hold.
   */
  transferOwnership(fromId: string, toId: string, now: Date): Promise<boolean>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    users: UsersRepository;
  }
}
