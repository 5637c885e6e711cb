import { describe, expect, it } from 'vitest';
import {
  ascendingIds,
  domainError,
  freshRepositories,
  HOSTILE_STRINGS,
  newId,
  type SetupRepositories,
  sampleUser,
} from '../../../support/db-contract.js';

/** UsersRepository, the same on D1, SQLite, MariaDB and PostgreSQL. */
export function runUsersRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`UsersRepository contract: ${name}`, () => {
    const db = freshRepositories(setup);

    it('creates a user and reads every field back unchanged', async () => {
      const input = sampleUser({ displayName: HOSTILE_STRINGS[0]! });
      await db.repos.users.create(input);
      const user = await db.repos.users.findById(input.id);
      expect(user).toEqual({
        id: input.id,
        email: input.email,
        displayName: input.displayName,
        role: 'admin',
        verified: false,
        passwordHash: input.passwordHash,
        tokenVersion: 0,
        createdAt: input.createdAt,
        updatedAt: input.createdAt,
      });
      expect(user?.createdAt).toBeInstanceOf(Date);
      expect(user?.createdAt.toISOString()).toBe('2026-11-25T21:00:00.123Z');
      // Secrets of the account stay out of the domain object.
      expect(Object.keys(user ?? {})).not.toContain('verificationCodeHash');
    });

    it('round-trips hostile display names exactly', async () => {
      for (const displayName of HOSTILE_STRINGS) {
        const input = sampleUser({ displayName });
        await db.repos.users.create(input);
        expect((await db.repos.users.findById(input.id))?.displayName).toBe(displayName);
      }
    });

    it('keeps a null display name null', async () => {
      const input = sampleUser({ displayName: null });
      await db.repos.users.create(input);
      expect((await db.repos.users.findById(input.id))?.displayName).toBeNull();
    });

    it('returns null for unknown and malformed ids', async () => {
      expect(await db.repos.users.findById(newId())).toBeNull();
      expect(await db.repos.users.findById('not-a-uuid')).toBeNull();
      expect(await db.repos.users.findById("' or 1=1 --")).toBeNull();
    });

    it('refuses a second account with the same e-mail as a conflict', async () => {
      const first = sampleUser({ email: 'same@example.com' });
      await db.repos.users.create(first);
      await expect(db.repos.users.create(sampleUser({ email: 'same@example.com' }))).rejects.toMatchObject(
        domainError('conflict'),
      );
      expect((await db.repos.users.findByEmail('same@example.com'))?.id).toBe(first.id);
    });

    it('finds by e-mail exactly, with no pattern matching', async () => {
      const email = `o'neil%_test+tag@exa_mple.com`;
      const input = sampleUser({ email });
      await db.repos.users.create(input);
      expect((await db.repos.users.findByEmail(email))?.id).toBe(input.id);
      expect(await db.repos.users.findByEmail('%')).toBeNull();
      expect(await db.repos.users.findByEmail(`o'neil__test+tag@exa_mple.com`)).toBeNull();
      expect(await db.repos.users.findByEmail(`o'neil%_test+tag@exa_mple.com `)).toBeNull();
      expect(await db.repos.users.findByEmail('nobody@example.com')).toBeNull();
      expect(await db.repos.users.findByEmail('nul\u0000@example.com')).toBeNull();
    });

    it('tells whether a verified user exists', async () => {
      expect(await db.repos.users.hasVerifiedUser()).toBe(false);
      await db.repos.users.create(sampleUser());
      expect(await db.repos.users.hasVerifiedUser()).toBe(false);
      await db.repos.users.create(
        sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null }),
      );
      expect(await db.repos.users.hasVerifiedUser()).toBe(true);
    });

    it('finds a user by verification code hash with its expiry', async () => {
      const input = sampleUser();
      await db.repos.users.create(input);
      const found = await db.repos.users.findByVerificationCode(input.verificationCodeHash!);
      expect(found?.user.id).toBe(input.id);
      expect(found?.expiresAt).toEqual(input.verificationExpiresAt);
      expect(await db.repos.users.findByVerificationCode('unknown')).toBeNull();
    });

    it('replaces the verification code: the old one stops working', async () => {
      const input = sampleUser();
      await db.repos.users.create(input);
      const expiresAt = new Date('2026-11-26T01:02:03.004Z');
      await db.repos.users.setVerificationCode(input.id, 'new-code-hash', expiresAt);
      expect(await db.repos.users.findByVerificationCode(input.verificationCodeHash!)).toBeNull();
      const found = await db.repos.users.findByVerificationCode('new-code-hash');
      expect(found?.user.id).toBe(input.id);
      expect(found?.expiresAt).toEqual(expiresAt);
    });

    it('makes the first verified account the owner and cancels other registrations', async () => {
      const winner = sampleUser();
      const pending = sampleUser();
      await db.repos.users.create(winner);
      await db.repos.users.create(pending);
      const now = new Date('2026-11-25T22:00:00.500Z');

      expect(await db.repos.users.verifyAsFirstOwner(winner.id, now)).toBe(true);

      const owner = await db.repos.users.findById(winner.id);
      expect(owner).toMatchObject({ role: 'owner', verified: true, updatedAt: now });
      expect(await db.repos.users.findByVerificationCode(winner.verificationCodeHash!)).toBeNull();
      expect(await db.repos.users.findById(pending.id)).toBeNull();
      expect(await db.repos.users.hasVerifiedUser()).toBe(true);
    });

    it('changes nothing and returns false once an owner exists', async () => {
      const first = sampleUser();
      await db.repos.users.create(first);
      expect(await db.repos.users.verifyAsFirstOwner(first.id, new Date())).toBe(true);
      const late = sampleUser();
      const other = sampleUser();
      await db.repos.users.create(late);
      await db.repos.users.create(other);

      expect(await db.repos.users.verifyAsFirstOwner(late.id, new Date())).toBe(false);

      expect(await db.repos.users.findById(late.id)).toMatchObject({ role: 'admin', verified: false });
      expect(await db.repos.users.findById(other.id)).not.toBeNull();
      expect((await db.repos.users.findByVerificationCode(late.verificationCodeHash!))?.user.id).toBe(late.id);
      expect((await db.repos.users.findById(first.id))?.role).toBe('owner');
    });

    it('returns false and deletes nothing for an unknown or already verified user', async () => {
      const pending = sampleUser();
      const verified = sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null });
      await db.repos.users.create(pending);
      await db.repos.users.create(verified);
      expect(await db.repos.users.verifyAsFirstOwner(newId(), new Date())).toBe(false);
      expect(await db.repos.users.verifyAsFirstOwner('malformed', new Date())).toBe(false);
      expect(await db.repos.users.verifyAsFirstOwner(verified.id, new Date())).toBe(false);
      expect(await db.repos.users.findById(pending.id)).not.toBeNull();
      expect((await db.repos.users.findById(verified.id))?.role).toBe('admin');
    });

    it('lets exactly one of 20 parallel first verifications win', async () => {
      const racers = Array.from({ length: 20 }, () => sampleUser());
      for (const user of racers) await db.repos.users.create(user);
      const now = new Date('2026-11-25T22:00:00.000Z');

      const results = await Promise.all(racers.map((u) => db.repos.users.verifyAsFirstOwner(u.id, now)));

      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = racers[results.indexOf(true)]!;
      const after = await Promise.all(racers.map((u) => db.repos.users.findById(u.id)));
      const survivors = after.filter((u) => u !== null);
      expect(survivors).toHaveLength(1);
      expect(survivors[0]).toMatchObject({ id: winner.id, role: 'owner', verified: true });
    });

    it('creates a registrant only while no verified account exists', async () => {
      const early = sampleUser();
      expect(await db.repos.users.createRegistrant(early)).toBe(true);
      expect(await db.repos.users.findById(early.id)).toMatchObject({ verified: false, role: 'admin' });
      await expect(db.repos.users.createRegistrant(sampleUser({ email: early.email }))).rejects.toMatchObject(
        domainError('conflict'),
      );
      expect(await db.repos.users.verifyAsFirstOwner(early.id, new Date())).toBe(true);
      const late = sampleUser();
      expect(await db.repos.users.createRegistrant(late)).toBe(false);
      expect(await db.repos.users.findById(late.id)).toBeNull();
      // The owner's own address: closed, not a conflict.
      expect(await db.repos.users.createRegistrant(sampleUser({ email: early.email }))).toBe(false);
    });

    it('leaves no registrant behind when 20 register while the first account verifies', async () => {
      const first = sampleUser();
      await db.repos.users.create(first);
      const racers = Array.from({ length: 20 }, () => sampleUser());
      const now = new Date('2026-11-25T22:00:00.000Z');
      const registering = racers.map((u, i) =>
        // Spread over the verification: some before, some during, some after.
        new Promise((resolve) => setTimeout(resolve, i % 5)).then(() => db.repos.users.createRegistrant(u)),
      );
      const [won] = await Promise.all([db.repos.users.verifyAsFirstOwner(first.id, now), ...registering]);
      expect(won).toBe(true);
      const after = await Promise.all(racers.map((u) => db.repos.users.findById(u.id)));
      expect(after.filter((u) => u !== null)).toEqual([]);
      expect(await db.repos.users.findById(first.id)).toMatchObject({ role: 'owner', verified: true });
    });

    it('refuses a second owner created directly', async () => {
      await db.repos.users.create(sampleUser({ role: 'owner', verified: true, verificationCodeHash: null }));
      await expect(
        db.repos.users.create(sampleUser({ role: 'owner', verified: true, verificationCodeHash: null })),
      ).rejects.toMatchObject(domainError('conflict'));
    });

    it('deletes a user once', async () => {
      const input = sampleUser();
      await db.repos.users.create(input);
      expect(await db.repos.users.delete(input.id)).toBe(true);
      expect(await db.repos.users.findById(input.id)).toBeNull();
      expect(await db.repos.users.delete(input.id)).toBe(false);
      expect(await db.repos.users.delete('malformed')).toBe(false);
      // The e-mail is free again.
      await db.repos.users.create(sampleUser({ email: input.email }));
    });

    it('refuses NUL characters the same way on every database', async () => {
      await expect(db.repos.users.create(sampleUser({ displayName: 'a\u0000b' }))).rejects.toMatchObject(
        domainError('invalid_request'),
      );
    });

    it('deletes an account only while it is unverified', async () => {
      const pending = sampleUser();
      const verified = sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null });
      await db.repos.users.create(pending);
      await db.repos.users.create(verified);
      expect(await db.repos.users.deleteUnverified(verified.id)).toBe(false);
      expect(await db.repos.users.findById(verified.id)).not.toBeNull();
      expect(await db.repos.users.deleteUnverified(pending.id)).toBe(true);
      expect(await db.repos.users.findById(pending.id)).toBeNull();
      expect(await db.repos.users.deleteUnverified(pending.id)).toBe(false);
      expect(await db.repos.users.deleteUnverified('malformed')).toBe(false);
    });

    it('lists users newest first, keyset paged by id', async () => {
      const ids = ascendingIds(5);
      for (const id of ids) await db.repos.users.create(sampleUser({ id }));
      const first = await db.repos.users.list({ limit: 2 });
      expect(first.map((u) => u.id)).toEqual([ids[4], ids[3]]);
      expect(first[0]).toMatchObject({ email: `user-${ids[4]}@example.com`, role: 'admin', tokenVersion: 0 });
      const second = await db.repos.users.list({ limit: 2, beforeId: ids[3]! });
      expect(second.map((u) => u.id)).toEqual([ids[2], ids[1]]);
      expect((await db.repos.users.list({ limit: 10, beforeId: ids[0]! })).map((u) => u.id)).toEqual([]);
      expect(await db.repos.users.list({ limit: 100 })).toHaveLength(5);
      await expect(db.repos.users.list({ limit: 2, beforeId: "' or 1=1 --" })).rejects.toMatchObject(
        domainError('invalid_request'),
      );
      await expect(db.repos.users.list({ limit: 0 })).rejects.toMatchObject(domainError('invalid_request'));
    });

    it('updates the display name and updatedAt only', async () => {
      const input = sampleUser();
      await db.repos.users.create(input);
      const now = new Date('2026-11-26T08:00:00.250Z');
      const updated = await db.repos.users.update(input.id, { displayName: HOSTILE_STRINGS[3]! }, now);
      expect(updated).toMatchObject({
        id: input.id,
        displayName: HOSTILE_STRINGS[3],
        updatedAt: now,
        createdAt: input.createdAt,
      });
      expect(updated?.passwordHash).toBe(input.passwordHash);
      const cleared = await db.repos.users.update(input.id, { displayName: null }, now);
      expect(cleared?.displayName).toBeNull();
      const untouched = await db.repos.users.update(input.id, {}, new Date('2026-11-26T09:00:00.000Z'));
      expect(untouched).toMatchObject({ displayName: null, updatedAt: new Date('2026-11-26T09:00:00.000Z') });
      expect(await db.repos.users.update(newId(), { displayName: 'x' }, now)).toBeNull();
      expect(await db.repos.users.update('malformed', { displayName: 'x' }, now)).toBeNull();
    });

    it('sets a password and bumps the token version each time', async () => {
      const input = sampleUser();
      await db.repos.users.create(input);
      const now = new Date('2026-11-26T08:00:00.000Z');
      expect(await db.repos.users.setPassword(input.id, 'new-hash-1', now)).toBe(true);
      expect(await db.repos.users.findById(input.id)).toMatchObject({
        passwordHash: 'new-hash-1',
        tokenVersion: 1,
        updatedAt: now,
      });
      expect(await db.repos.users.setPassword(input.id, 'new-hash-2', now)).toBe(true);
      expect((await db.repos.users.findById(input.id))?.tokenVersion).toBe(2);
      expect(await db.repos.users.setPassword(newId(), 'x', now)).toBe(false);
      expect(await db.repos.users.setPassword('malformed', 'x', now)).toBe(false);
    });

    it('resets a password once with an unexpired code: new hash, code cleared, token version bumped', async () => {
      const input = sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null });
      const other = sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null });
      await db.repos.users.create(input);
      await db.repos.users.create(other);
      const now = new Date('2026-11-26T08:00:00.000Z');
      await db.repos.users.setResetCode(input.id, 'reset-1', new Date(now.getTime() + 60_000));
      await db.repos.users.setResetCode(other.id, 'reset-other', new Date(now.getTime() + 60_000));

      expect(await db.repos.users.resetPassword('reset-1', 'reset-hash', now)).toBe(input.id);
      expect(await db.repos.users.findById(input.id)).toMatchObject({
        passwordHash: 'reset-hash',
        tokenVersion: 1,
        updatedAt: now,
      });
      // Single use.
      expect(await db.repos.users.resetPassword('reset-1', 'again', now)).toBeNull();
      expect((await db.repos.users.findById(input.id))?.passwordHash).toBe('reset-hash');
      // The other account is untouched.
      expect(await db.repos.users.findById(other.id)).toMatchObject({
        passwordHash: other.passwordHash,
        tokenVersion: 0,
      });
    });

    it('refuses an expired, replaced, unknown or hostile reset code and changes nothing', async () => {
      const input = sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null });
      await db.repos.users.create(input);
      const now = new Date('2026-11-26T08:00:00.000Z');
      await db.repos.users.setResetCode(input.id, 'reset-old', new Date(now.getTime() + 60_000));
      await db.repos.users.setResetCode(input.id, 'reset-new', now);
      expect(await db.repos.users.resetPassword('reset-old', 'x', now)).toBeNull();
      // Expires at `now` exactly: too late.
      expect(await db.repos.users.resetPassword('reset-new', 'x', now)).toBeNull();
      expect(await db.repos.users.resetPassword('reset-new ', 'x', new Date(now.getTime() - 1))).toBeNull();
      expect(await db.repos.users.resetPassword('unknown', 'x', now)).toBeNull();
      expect(await db.repos.users.resetPassword("' or 1=1 --", 'x', now)).toBeNull();
      expect(await db.repos.users.resetPassword('nul\u0000', 'x', now)).toBeNull();
      expect(await db.repos.users.findById(input.id)).toMatchObject({
        passwordHash: input.passwordHash,
        tokenVersion: 0,
      });
      // Still valid a millisecond earlier.
      expect(await db.repos.users.resetPassword('reset-new', 'y', new Date(now.getTime() - 1))).toBe(input.id);
    });

    it('ends an outstanding reset code when the password is set', async () => {
      const input = sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null });
      await db.repos.users.create(input);
      const now = new Date('2026-11-26T08:00:00.000Z');
      await db.repos.users.setResetCode(input.id, 'reset-before-change', new Date(now.getTime() + 60_000));
      expect(await db.repos.users.setPassword(input.id, 'changed-hash', now)).toBe(true);
      expect(await db.repos.users.resetPassword('reset-before-change', 'x', now)).toBeNull();
      expect(await db.repos.users.findById(input.id)).toMatchObject({ passwordHash: 'changed-hash', tokenVersion: 1 });
    });

    it('lets exactly one of 10 concurrent resets with one code succeed', async () => {
      const input = sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null });
      await db.repos.users.create(input);
      const now = new Date('2026-11-26T08:00:00.000Z');
      await db.repos.users.setResetCode(input.id, 'reset-race', new Date(now.getTime() + 60_000));
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => db.repos.users.resetPassword('reset-race', `hash-${i}`, now)),
      );
      expect(results.filter((r) => r === input.id)).toHaveLength(1);
      expect(results.filter((r) => r === null)).toHaveLength(9);
      const user = await db.repos.users.findById(input.id);
      expect(user?.tokenVersion).toBe(1);
      expect(user?.passwordHash).toBe(`hash-${results.indexOf(input.id)}`);
    });

    it('transfers ownership to a verified account: the old owner becomes admin', async () => {
      const owner = sampleUser({
        role: 'owner',
        verified: true,
        verificationCodeHash: null,
        verificationExpiresAt: null,
      });
      const next = sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null });
      await db.repos.users.create(owner);
      await db.repos.users.create(next);
      const now = new Date('2026-11-26T08:00:00.000Z');
      expect(await db.repos.users.transferOwnership(owner.id, next.id, now)).toBe(true);
      expect(await db.repos.users.findById(owner.id)).toMatchObject({ role: 'admin', updatedAt: now });
      expect(await db.repos.users.findById(next.id)).toMatchObject({ role: 'owner', updatedAt: now });
      // And back again: the lock moved with the role.
      expect(await db.repos.users.transferOwnership(next.id, owner.id, now)).toBe(true);
      expect((await db.repos.users.findById(owner.id))?.role).toBe('owner');
      expect((await db.repos.users.findById(next.id))?.role).toBe('admin');
      // Still only one owner may exist.
      await expect(
        db.repos.users.create(sampleUser({ role: 'owner', verified: true, verificationCodeHash: null })),
      ).rejects.toMatchObject(domainError('conflict'));
    });

    it('refuses a transfer from a non-owner or to an unverified, unknown or same account, changing nothing', async () => {
      const owner = sampleUser({
        role: 'owner',
        verified: true,
        verificationCodeHash: null,
        verificationExpiresAt: null,
      });
      const admin = sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null });
      const other = sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null });
      const pending = sampleUser();
      for (const u of [owner, admin, other, pending]) await db.repos.users.create(u);
      const now = new Date('2026-11-26T08:00:00.000Z');
      expect(await db.repos.users.transferOwnership(admin.id, other.id, now)).toBe(false);
      expect(await db.repos.users.transferOwnership(owner.id, pending.id, now)).toBe(false);
      expect(await db.repos.users.transferOwnership(owner.id, newId(), now)).toBe(false);
      expect(await db.repos.users.transferOwnership(owner.id, owner.id, now)).toBe(false);
      expect(await db.repos.users.transferOwnership(owner.id, 'malformed', now)).toBe(false);
      expect(await db.repos.users.findById(owner.id)).toMatchObject({ role: 'owner', updatedAt: owner.createdAt });
      for (const u of [admin, other, pending]) {
        expect(await db.repos.users.findById(u.id)).toMatchObject({
          role: 'admin',
          updatedAt: u.createdAt,
          tokenVersion: 0,
        });
      }
    });

    it('refuses a transfer from a non-owner when no owner exists at all', async () => {
      const a = sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null });
      const b = sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null });
      await db.repos.users.create(a);
      await db.repos.users.create(b);
      expect(await db.repos.users.transferOwnership(a.id, b.id, new Date())).toBe(false);
      expect((await db.repos.users.findById(b.id))?.role).toBe('admin');
    });

    it('lets one of several concurrent transfers from the owner win, leaving exactly one owner', async () => {
      const owner = sampleUser({
        role: 'owner',
        verified: true,
        verificationCodeHash: null,
        verificationExpiresAt: null,
      });
      const candidates = Array.from({ length: 5 }, () =>
        sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null }),
      );
      for (const u of [owner, ...candidates]) await db.repos.users.create(u);
      const now = new Date('2026-11-26T08:00:00.000Z');
      const results = await Promise.all(candidates.map((c) => db.repos.users.transferOwnership(owner.id, c.id, now)));
      expect(results.filter(Boolean)).toHaveLength(1);
      const all = await db.repos.users.list({ limit: 10 });
      expect(all.filter((u) => u.role === 'owner').map((u) => u.id)).toEqual([candidates[results.indexOf(true)]!.id]);
    });

    it('answers ping', async () => {
      await expect(db.repos.ping()).resolves.toBeUndefined();
    });
  });
}
