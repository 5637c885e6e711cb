import { describe, expect, it } from 'vitest';
import { createDbUpdateState } from '../../worker/src/adapters/update/db-update-state.js';
import { freshRepositories, type SetupRepositories } from '../support/db-contract.js';

const NOW = new Date('2026-11-26T09:00:00.000Z');

/** SystemStateRepository and the update state kept on it, the same on D1, SQLite, MariaDB and PostgreSQL. */
export function runSystemStateRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`SystemStateRepository contract: ${name}`, () => {
    const db = freshRepositories(setup);

    it('stores by key and never lets a lower version overwrite a higher one', async () => {
      expect(await db.repos.systemState.get('update')).toBeNull();
      expect(await db.repos.systemState.save('update', '{"a":1}', 5, NOW)).toBe(true);
      expect(await db.repos.systemState.save('update', '{"a":2}', 5, NOW)).toBe(true);
      expect(await db.repos.systemState.save('update', '{"old":true}', 4, NOW)).toBe(false);
      expect(await db.repos.systemState.get('update')).toEqual({ value: '{"a":2}', version: 5 });
      expect(await db.repos.systemState.save('update', '{"a":3}', 1_795_650_884, NOW)).toBe(true);
      expect(await db.repos.systemState.get('update')).toEqual({ value: '{"a":3}', version: 1_795_650_884 });
      expect(await db.repos.systemState.get('other')).toBeNull();
    });

    it('keeps the highest of concurrent saves', async () => {
      // Several rounds: the interleavings differ from one to the next.
      for (let round = 0; round < 8; round++) {
        const key = `race-${round}`;
        const results = await Promise.all(
          [3, 9, 1, 7, 9, 2].map((v) => db.repos.systemState.save(key, `{"v":${v}}`, v, NOW)),
        );
        expect(results.some(Boolean)).toBe(true);
        expect(await db.repos.systemState.get(key)).toEqual({ value: '{"v":9}', version: 9 });
      }
    });

    it('holds the update state: a stale isolate cannot lower the highest sequence seen', async () => {
      const a = createDbUpdateState(db.repos.systemState, () => NOW);
      const b = createDbUpdateState(db.repos.systemState, () => NOW);
      expect(await a.load()).toMatchObject({ highestSequenceSeen: 0, staged: null });
      const stale = await b.load();
      await a.save({ ...(await a.load()), highestSequenceSeen: 42, lastCheckedAt: NOW.toISOString() });
      await b.save({ ...stale, highestSequenceSeen: 0, lastCheckedAt: '2026-01-01T00:00:00.000Z' });
      expect(await b.load()).toMatchObject({ highestSequenceSeen: 42, lastCheckedAt: NOW.toISOString() });
    });
  });
}
