import { describe, expect, it } from 'vitest';
import type { Redirect } from '../../../../worker/src/features/redirects/redirects.port.js';
import {
  domainError,
  expectKeysetPages,
  freshRepositories,
  HOSTILE_STRINGS,
  newId,
  type SetupRepositories,
} from '../../../support/db-contract.js';

const CREATED = new Date('2026-11-26T09:00:00.123Z');
const LATER = new Date('2026-11-26T10:30:00.456Z');

/** A path of 2,000 characters that no compression shortens: 6,000 bytes of UTF-8, past any index entry. */
export const LONG_PATH = `/${Array.from({ length: 1999 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20000))).join('')}`;

let serial = 0;
export function sampleRedirect(overrides: Partial<Redirect> = {}): Redirect {
  serial += 1;
  return {
    id: newId(),
    from: `/old-${serial}`,
    to: '/new',
    status: 301,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

/** RedirectsRepository, the same on D1, SQLite, MariaDB and PostgreSQL. */
export function runRedirectsRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`RedirectsRepository contract: ${name}`, () => {
    const db = freshRepositories(setup);

    it('creates a redirect and reads every field back unchanged; unknown and malformed ids find nothing', async () => {
      const redirect = sampleRedirect({ to: `https://x.example/${HOSTILE_STRINGS[2]}`, status: 308 });
      await db.repos.redirects.create(redirect);
      expect(await db.repos.redirects.findById(redirect.id)).toEqual(redirect);
      expect(await db.repos.redirects.findById(redirect.id.toUpperCase())).toEqual(redirect);
      expect(await db.repos.redirects.findById(newId())).toBeNull();
      expect(await db.repos.redirects.findById("' or 1=1 --")).toBeNull();
    });

    it('finds a redirect by its from, exactly: case, trailing spaces and Unicode forms are other paths', async () => {
      const paths = [
        ...HOSTILE_STRINGS.map((s) => `/${s}`),
        '/café',
        '/cafe\u0301',
        '/Case',
        '/case',
        '/x',
        '/x   ',
        LONG_PATH,
      ];
      const made = paths.map((from) => sampleRedirect({ from }));
      for (const r of made) await db.repos.redirects.create(r);
      for (const r of made) expect(await db.repos.redirects.findByFrom(r.from), JSON.stringify(r.from)).toEqual(r);
      expect(await db.repos.redirects.findByFrom('/CASE')).toBeNull();
      expect(await db.repos.redirects.findByFrom('/x ')).toBeNull();
      expect(await db.repos.redirects.findByFrom("' or 1=1 --")).toBeNull();
    });

    it('refuses a from in use (conflict, naming from), NUL characters and malformed ids', async () => {
      await db.repos.redirects.create(sampleRedirect({ from: '/news' }));
      await expect(db.repos.redirects.create(sampleRedirect({ from: '/news' }))).rejects.toMatchObject({
        ...domainError('conflict'),
        issues: [{ path: 'from' }],
      });
      await db.repos.redirects.create(sampleRedirect({ from: LONG_PATH }));
      await expect(db.repos.redirects.create(sampleRedirect({ from: LONG_PATH }))).rejects.toMatchObject(
        domainError('conflict'),
      );
      for (const bad of [{ from: '/a\u0000b' }, { to: '/a\u0000b' }, { id: 'nope' }]) {
        await expect(db.repos.redirects.create(sampleRedirect(bad))).rejects.toMatchObject(
          domainError('invalid_request'),
        );
      }
      expect((await db.repos.redirects.list({ limit: 10 })).map((r) => r.from)).toEqual([LONG_PATH, '/news']);
    });

    it('lists newest first, keyset paged', async () => {
      await expectKeysetPages(db.repos.redirects, (id) => sampleRedirect({ id }));
    });

    it('updates only the given fields and bumps updatedAt; a from in use is a conflict; the old from is free', async () => {
      const redirect = sampleRedirect({ from: '/one' });
      await db.repos.redirects.create(redirect);
      await db.repos.redirects.create(sampleRedirect({ from: '/two' }));
      const retargeted = await db.repos.redirects.update(redirect.id, { to: '/elsewhere', status: 302 }, LATER);
      expect(retargeted).toEqual({ ...redirect, to: '/elsewhere', status: 302, updatedAt: LATER });
      const moved = await db.repos.redirects.update(redirect.id, { from: '/uno' }, LATER);
      expect(moved).toEqual({ ...retargeted, from: '/uno' });
      expect(await db.repos.redirects.findByFrom('/uno')).toEqual(moved);
      expect(await db.repos.redirects.findByFrom('/one')).toBeNull();
      await expect(db.repos.redirects.update(redirect.id, { from: '/two' }, LATER)).rejects.toMatchObject({
        ...domainError('conflict'),
        issues: [{ path: 'from' }],
      });
      expect(await db.repos.redirects.findById(redirect.id)).toEqual(moved);
      await db.repos.redirects.create(sampleRedirect({ from: '/one' }));
      expect(await db.repos.redirects.update(newId(), { to: '/x' }, LATER)).toBeNull();
      expect(await db.repos.redirects.update('malformed', { to: '/x' }, LATER)).toBeNull();
    });

    it('writes a change made on what was read only while its from and to are still those', async () => {
      const redirect = sampleRedirect({ from: '/read', to: '/there' });
      await db.repos.redirects.create(redirect);
      const read = { from: redirect.from, to: redirect.to };
      // Another change moved `to` since the read: nothing is written.
      const moved = await db.repos.redirects.update(redirect.id, { to: '/read/' }, LATER);
      expect(moved).toMatchObject({ to: '/read/' });
      expect(await db.repos.redirects.update(redirect.id, { from: '/read/' }, LATER, read)).toBeNull();
      expect(
        await db.repos.redirects.update(redirect.id, { status: 302 }, LATER, { ...read, to: '/READ/' }),
      ).toBeNull();
      expect(await db.repos.redirects.findById(redirect.id)).toEqual(moved);
      // On what is there now, it is written; the status alone is no part of the check.
      const now = { from: '/read', to: '/read/' };
      expect(await db.repos.redirects.update(redirect.id, { status: 307 }, LATER, now)).toEqual({
        ...moved,
        status: 307,
      });
      expect(await db.repos.redirects.update(newId(), { to: '/x' }, LATER, now)).toBeNull();
    });

    it('deletes a redirect, which frees its from; unknown and malformed ids delete nothing', async () => {
      const redirect = sampleRedirect({ from: '/gone' });
      await db.repos.redirects.create(redirect);
      expect(await db.repos.redirects.delete(redirect.id)).toBe(true);
      expect(await db.repos.redirects.findById(redirect.id)).toBeNull();
      expect(await db.repos.redirects.findByFrom('/gone')).toBeNull();
      expect(await db.repos.redirects.delete(redirect.id)).toBe(false);
      expect(await db.repos.redirects.delete('malformed')).toBe(false);
      await db.repos.redirects.create(sampleRedirect({ from: '/gone' }));
    });
  });
}
