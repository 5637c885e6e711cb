import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Repositories } from '../../worker/src/ports/repositories.js';
import {
  HOSTILE_STRINGS,
  domainError,
  newId,
  sampleUser,
  type RepositoryContractSetup,
  type SetupRepositories,
} from '../support/db-contract.js';

/** UsersRepository, the same on D1, SQLite, MariaDB and PostgreSQL. */
export function runUsersRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`UsersRepository contract: ${name}`, () => {
    let ctx: RepositoryContractSetup;
    let repos: Repositories;
    beforeEach(async () => {
      ctx = await setup();
      repos = ctx.repos;
    });
    afterEach(async () => {
      await ctx.cleanup();
    });

    it('creates a user and reads every field back unchanged', async () => {
      const input = sampleUser({ displayName: HOSTILE_STRINGS[0]! });
      await repos.users.create(input);
      const user = await repos.users.findById(input.id);
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
        await repos.users.create(input);
        expect((await repos.users.findById(input.id))?.displayName).toBe(displayName);
      }
    });

    it('keeps a null display name null', async () => {
      const input = sampleUser({ displayName: null });
      await repos.users.create(input);
      expect((await repos.users.findById(input.id))?.displayName).toBeNull();
    });

    it('returns null for unknown and malformed ids', async () => {
      expect(await repos.users.findById(newId())).toBeNull();
      expect(await repos.users.findById('not-a-uuid')).toBeNull();
      expect(await repos.users.findById("' or 1=1 --")).toBeNull();
    });

    it('refuses a second account with the same e-mail as a conflict', async () => {
      const first = sampleUser({ email: 'same@example.com' });
      await repos.users.create(first);
      await expect(repos.users.create(sampleUser({ email: 'same@example.com' }))).rejects.toMatchObject(
        domainError('conflict'),
      );
      expect((await repos.users.findByEmail('same@example.com'))?.id).toBe(first.id);
    });

    it('finds by e-mail exactly, with no pattern matching', async () => {
      const email = `o'neil%_test+tag@exa_mple.com`;
      const input = sampleUser({ email });
      await repos.users.create(input);
      expect((await repos.users.findByEmail(email))?.id).toBe(input.id);
      expect(await repos.users.findByEmail('%')).toBeNull();
      expect(await repos.users.findByEmail(`o'neil__test+tag@exa_mple.com`)).toBeNull();
      expect(await repos.users.findByEmail(`o'neil%_test+tag@exa_mple.com `)).toBeNull();
      expect(await repos.users.findByEmail('nobody@example.com')).toBeNull();
      expect(await repos.users.findByEmail('nul\u0000@example.com')).toBeNull();
    });

    it('tells whether a verified user exists', async () => {
      expect(await repos.users.hasVerifiedUser()).toBe(false);
      await repos.users.create(sampleUser());
      expect(await repos.users.hasVerifiedUser()).toBe(false);
      await repos.users.create(sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null }));
      expect(await repos.users.hasVerifiedUser()).toBe(true);
    });

    it('finds a user by verification code hash with its expiry', async () => {
      const input = sampleUser();
      await repos.users.create(input);
      const found = await repos.users.findByVerificationCode(input.verificationCodeHash!);
      expect(found?.user.id).toBe(input.id);
      expect(found?.expiresAt).toEqual(input.verificationExpiresAt);
      expect(await repos.users.findByVerificationCode('unknown')).toBeNull();
    });

    it('replaces the verification code: the old one stops working', async () => {
      const input = sampleUser();
      await repos.users.create(input);
      const expiresAt = new Date('2026-11-26T01:02:03.004Z');
      await repos.users.setVerificationCode(input.id, 'new-code-hash', expiresAt);
      expect(await repos.users.findByVerificationCode(input.verificationCodeHash!)).toBeNull();
      const found = await repos.users.findByVerificationCode('new-code-hash');
      expect(found?.user.id).toBe(input.id);
      expect(found?.expiresAt).toEqual(expiresAt);
    });

    it('makes the first verified account the owner and cancels other registrations', async () => {
      const winner = sampleUser();
      const pending = sampleUser();
      await repos.users.create(winner);
      await repos.users.create(pending);
      const now = new Date('2026-11-25T22:00:00.500Z');

      expect(await repos.users.verifyAsFirstOwner(winner.id, now)).toBe(true);

      const owner = await repos.users.findById(winner.id);
      expect(owner).toMatchObject({ role: 'owner', verified: true, updatedAt: now });
      expect(await repos.users.findByVerificationCode(winner.verificationCodeHash!)).toBeNull();
      expect(await repos.users.findById(pending.id)).toBeNull();
      expect(await repos.users.hasVerifiedUser()).toBe(true);
    });

    it('changes nothing and returns false once an owner exists', async () => {
      const first = sampleUser();
      await repos.users.create(first);
      expect(await repos.users.verifyAsFirstOwner(first.id, new Date())).toBe(true);
      const late = sampleUser();
      const other = sampleUser();
      await repos.users.create(late);
      await repos.users.create(other);

      expect(await repos.users.verifyAsFirstOwner(late.id, new Date())).toBe(false);

      expect(await repos.users.findById(late.id)).toMatchObject({ role: 'admin', verified: false });
      expect(await repos.users.findById(other.id)).not.toBeNull();
      expect((await repos.users.findByVerificationCode(late.verificationCodeHash!))?.user.id).toBe(late.id);
      expect((await repos.users.findById(first.id))?.role).toBe('owner');
    });

    it('returns false and deletes nothing for an unknown or already verified user', async () => {
      const pending = sampleUser();
      const verified = sampleUser({ verified: true, verificationCodeHash: null, verificationExpiresAt: null });
      await repos.users.create(pending);
      await repos.users.create(verified);
      expect(await repos.users.verifyAsFirstOwner(newId(), new Date())).toBe(false);
      expect(await repos.users.verifyAsFirstOwner('malformed', new Date())).toBe(false);
      expect(await repos.users.verifyAsFirstOwner(verified.id, new Date())).toBe(false);
      expect(await repos.users.findById(pending.id)).not.toBeNull();
      expect((await repos.users.findById(verified.id))?.role).toBe('admin');
    });

    it('lets exactly one of 20 parallel first verifications win', async () => {
      const racers = Array.from({ length: 20 }, () => sampleUser());
      for (const user of racers) await repos.users.create(user);
      const now = new Date('2026-11-25T22:00:00.000Z');

      const results = await Promise.all(racers.map((u) => repos.users.verifyAsFirstOwner(u.id, now)));

      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = racers[results.indexOf(true)]!;
      const after = await Promise.all(racers.map((u) => repos.users.findById(u.id)));
      const survivors = after.filter((u) => u !== null);
      expect(survivors).toHaveLength(1);
      expect(survivors[0]).toMatchObject({ id: winner.id, role: 'owner', verified: true });
    });

    it('refuses a second owner created directly', async () => {
      await repos.users.create(sampleUser({ role: 'owner', verified: true, verificationCodeHash: null }));
      await expect(
        repos.users.create(sampleUser({ role: 'owner', verified: true, verificationCodeHash: null })),
      ).rejects.toMatchObject(domainError('conflict'));
    });

    it('deletes a user once', async () => {
      const input = sampleUser();
      await repos.users.create(input);
      expect(await repos.users.delete(input.id)).toBe(true);
      expect(await repos.users.findById(input.id)).toBeNull();
      expect(await repos.users.delete(input.id)).toBe(false);
      expect(await repos.users.delete('malformed')).toBe(false);
      // The e-mail is free again.
      await repos.users.create(sampleUser({ email: input.email }));
    });

    it('refuses NUL characters the same way on every database', async () => {
      await expect(repos.users.create(sampleUser({ displayName: 'a\u0000b' }))).rejects.toMatchObject(
        domainError('invalid_request'),
      );
    });

    it('answers ping', async () => {
      await expect(repos.ping()).resolves.toBeUndefined();
    });
  });
}
