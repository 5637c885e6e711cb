import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Invitation } from '../../../../worker/src/features/accounts/invitations.port.js';
import type { NewUser } from '../../../../worker/src/features/accounts/users.port.js';
import type { Repositories } from '../../../../worker/src/ports/repositories.js';
import {
  ascendingIds,
  domainError,
  newId,
  type RepositoryContractSetup,
  type SetupRepositories,
  sampleUser,
} from '../../../support/db-contract.js';

const NOW = new Date('2026-11-26T10:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

function sampleInvitation(overrides: Partial<Invitation> = {}): Invitation {
  const id = overrides.id ?? newId();
  return {
    id,
    email: `invitee-${id}@example.com`,
    role: 'admin',
    codeHash: `invite-${id}`,
    expiresAt: new Date(NOW.getTime() + 3 * DAY),
    createdAt: new Date('2026-11-26T09:00:00.123Z'),
    invitedBy: null,
    ...overrides,
  };
}

/** What the accounts service hands to accept(): the invitation decides e-mail and role. */
const newMember =
  (overrides: Partial<NewUser> = {}) =>
  (invitation: Invitation): NewUser => ({
    id: newId(),
    email: invitation.email,
    displayName: 'Invited Member',
    role: invitation.role,
    verified: true,
    passwordHash: 'pbkdf2$sha256$600000$aW52$aW52aXRlZA',
    createdAt: NOW,
    verificationCodeHash: null,
    verificationExpiresAt: null,
    ...overrides,
  });

/** InvitationsRepository, the same on D1, SQLite, MariaDB and PostgreSQL. */
export function runInvitationsRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`InvitationsRepository contract: ${name}`, () => {
    let ctx: RepositoryContractSetup;
    let repos: Repositories;
    let ownerId: string;
    beforeEach(async () => {
      ctx = await setup();
      repos = ctx.repos;
      const owner = sampleUser({
        role: 'owner',
        verified: true,
        verificationCodeHash: null,
        verificationExpiresAt: null,
      });
      await repos.users.create(owner);
      ownerId = owner.id;
    });
    afterEach(async () => {
      await ctx.cleanup();
    });

    it('creates an invitation and reads every field back unchanged', async () => {
      const input = sampleInvitation({ invitedBy: ownerId, email: `o'neil%_+tag-${newId()}@exa_mple.com` });
      await repos.invitations.create(input);
      const found = await repos.invitations.findById(input.id);
      expect(found).toEqual(input);
      expect(found?.expiresAt).toBeInstanceOf(Date);
      expect(await repos.invitations.findById(newId())).toBeNull();
      expect(await repos.invitations.findById("' or 1=1 --")).toBeNull();
    });

    it('refuses a second pending invitation for one address, and the address of an existing user', async () => {
      const first = sampleInvitation();
      await repos.invitations.create(first);
      await expect(repos.invitations.create(sampleInvitation({ email: first.email }))).rejects.toMatchObject(
        domainError('conflict'),
      );
      const user = sampleUser();
      await repos.users.create(user);
      await expect(repos.invitations.create(sampleInvitation({ email: user.email }))).rejects.toMatchObject(
        domainError('conflict'),
      );
      expect((await repos.invitations.list({ limit: 10 })).map((i) => i.id)).toEqual([first.id]);
      // Once cancelled, the address may be invited again.
      expect(await repos.invitations.delete(first.id)).toBe(true);
      await repos.invitations.create(sampleInvitation({ email: first.email }));
    });

    it('lists newest first, keyset paged, expired invitations included', async () => {
      const ids = ascendingIds(5);
      for (const [i, id] of ids.entries()) {
        await repos.invitations.create(sampleInvitation({ id, expiresAt: new Date(NOW.getTime() + (i - 2) * DAY) }));
      }
      const first = await repos.invitations.list({ limit: 2 });
      expect(first.map((i) => i.id)).toEqual([ids[4], ids[3]]);
      expect((await repos.invitations.list({ limit: 2, beforeId: ids[3]! })).map((i) => i.id)).toEqual([
        ids[2],
        ids[1],
      ]);
      expect(await repos.invitations.list({ limit: 100 })).toHaveLength(5);
      await expect(repos.invitations.list({ limit: 2, beforeId: 'nope' })).rejects.toMatchObject(
        domainError('invalid_request'),
      );
    });

    it('renews: new code, expiry and createdAt; the old code stops working', async () => {
      const input = sampleInvitation();
      await repos.invitations.create(input);
      const later = new Date(NOW.getTime() + DAY);
      const renewed = await repos.invitations.renew(
        input.id,
        'renewed-code',
        new Date(later.getTime() + 3 * DAY),
        later,
      );
      expect(renewed).toEqual({
        ...input,
        codeHash: 'renewed-code',
        expiresAt: new Date(later.getTime() + 3 * DAY),
        createdAt: later,
      });
      expect(await repos.invitations.accept(input.codeHash, later, newMember())).toBeNull();
      expect(await repos.invitations.accept('renewed-code', later, newMember())).toMatchObject({ email: input.email });
      expect(await repos.invitations.renew(newId(), 'x', later, later)).toBeNull();
      expect(await repos.invitations.renew('malformed', 'x', later, later)).toBeNull();
    });

    it('accepts once: a verified account with the invitation e-mail and role, and the invitation is gone', async () => {
      const input = sampleInvitation({ invitedBy: ownerId });
      await repos.invitations.create(input);
      const user = await repos.invitations.accept(
        input.codeHash,
        NOW,
        newMember({ email: 'ignored@example.com', role: 'owner', verified: false }),
      );
      expect(user).toMatchObject({
        email: input.email,
        role: 'admin',
        verified: true,
        displayName: 'Invited Member',
        tokenVersion: 0,
        createdAt: NOW,
      });
      expect(await repos.users.findById(user!.id)).toEqual(user);
      expect(await repos.users.findByEmail(input.email)).toEqual(user);
      expect(await repos.invitations.findById(input.id)).toBeNull();
      expect(await repos.invitations.accept(input.codeHash, NOW, newMember())).toBeNull();
    });

    it('returns null and creates nothing for an unknown, expired, cancelled or hostile code', async () => {
      const expired = sampleInvitation({ expiresAt: NOW });
      const cancelled = sampleInvitation();
      await repos.invitations.create(expired);
      await repos.invitations.create(cancelled);
      await repos.invitations.delete(cancelled.id);
      expect(await repos.invitations.accept(expired.codeHash, NOW, newMember())).toBeNull();
      expect(await repos.invitations.accept(cancelled.codeHash, NOW, newMember())).toBeNull();
      expect(await repos.invitations.accept('unknown', NOW, newMember())).toBeNull();
      expect(
        await repos.invitations.accept(`${expired.codeHash} `, new Date(NOW.getTime() - 1), newMember()),
      ).toBeNull();
      expect(await repos.invitations.accept("' or 1=1 --", NOW, newMember())).toBeNull();
      expect(await repos.invitations.accept('nul\u0000', NOW, newMember())).toBeNull();
      expect(await repos.users.findByEmail(expired.email)).toBeNull();
      expect(await repos.users.findByEmail(cancelled.email)).toBeNull();
      expect(await repos.invitations.findById(expired.id)).not.toBeNull();
    });

    it('returns null, not a conflict, when the e-mail became an account meanwhile', async () => {
      const input = sampleInvitation();
      await repos.invitations.create(input);
      const squatter = sampleUser({ email: input.email });
      await repos.users.create(squatter);
      expect(await repos.invitations.accept(input.codeHash, NOW, newMember())).toBeNull();
      expect((await repos.users.findByEmail(input.email))?.id).toBe(squatter.id);
    });

    it('creates exactly one account when 20 accepts race with one code', async () => {
      const input = sampleInvitation();
      await repos.invitations.create(input);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => repos.invitations.accept(input.codeHash, NOW, newMember())),
      );
      const winners = results.filter((u) => u !== null);
      expect(winners).toHaveLength(1);
      const users = await repos.users.list({ limit: 100 });
      expect(users.filter((u) => u.email === input.email).map((u) => u.id)).toEqual([winners[0]!.id]);
      expect(await repos.invitations.findById(input.id)).toBeNull();
    });

    it('keeps the invitation when its inviter is deleted', async () => {
      const inviter = sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null });
      await repos.users.create(inviter);
      const input = sampleInvitation({ invitedBy: inviter.id });
      await repos.invitations.create(input);
      expect(await repos.users.delete(inviter.id)).toBe(true);
      expect(await repos.invitations.findById(input.id)).toEqual({ ...input, invitedBy: null });
    });

    it('deletes once', async () => {
      const input = sampleInvitation();
      await repos.invitations.create(input);
      expect(await repos.invitations.delete(input.id)).toBe(true);
      expect(await repos.invitations.delete(input.id)).toBe(false);
      expect(await repos.invitations.delete('malformed')).toBe(false);
    });

    it('refuses NUL characters the same way on every database', async () => {
      await expect(repos.invitations.create(sampleInvitation({ email: 'a\u0000b@example.com' }))).rejects.toMatchObject(
        domainError('invalid_request'),
      );
    });
  });
}
