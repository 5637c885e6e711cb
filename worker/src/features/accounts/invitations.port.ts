import type { Row } from '../../adapters/db/rows.js';
import type { NewUser, User } from './users.port.js';

/** Invitations: what the core needs from storage. */

/**
 * An invitation is its row: `email` lower case (one pending invitation per
 * address), `codeHash` the hex sha256 of the code that travels only in the
 * e-mail, `createdAt` set again on renewal.
 */
export type Invitation = Row<'invitations'>;

export interface InvitationsRepository {
  /** E-mail with a pending invitation, or of an existing user → DomainError('conflict'). */
  create(invitation: Invitation): Promise<void>;
  findById(id: string): Promise<Invitation | null>;
  /** Newest first, keyset paged. Expired invitations are listed too (the admin can renew them). */
  list(query: { limit: number; beforeId?: string }): Promise<Invitation[]>;
  /** New code, expiry and createdAt; the old code stops working. Null when unknown. */
  renew(id: string, codeHash: string, expiresAt: Date, now: Date): Promise<Invitation | null>;
  delete(id: string): Promise<boolean>;
  /**
   * Accepting is single use and all or nothing: where an invitation holds this
   * unexpired code, creates the verified user that `makeUser` describes (with
   * the invitation's e-mail and role) and deletes the invitation. Returns the
   * new user, or null for an unknown, expired, renewed or cancelled code.
   * 20 concurrent calls with one code create exactly one account.
   */
  accept(codeHash: string, now: Date, makeUser: (invitation: Invitation) => NewUser): Promise<User | null>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    invitations: InvitationsRepository;
  }
}
