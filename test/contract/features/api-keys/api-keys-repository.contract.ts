import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../../../../worker/src/features/api-keys/api-keys.port.js';
import { ascendingIds, freshRepositories, newId, type SetupRepositories } from '../../../support/db-contract.js';

const CREATED = new Date('2026-11-26T09:00:00.123Z');
const hash = (c: string) => c.repeat(64).slice(0, 64);

function sampleKey(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: newId(),
    name: 'Static site builder',
    prefix: 'cms_ab12cd34',
    scopes: ['content:read', 'media:write'],
    createdBy: newId(),
    createdAt: CREATED,
    lastUsedAt: null,
    expiresAt: null,
    ...overrides,
  };
}

/** ApiKeysRepository, the same on D1, SQLite, MariaDB and PostgreSQL. */
export function runApiKeysRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`ApiKeysRepository contract: ${name}`, () => {
    const db = freshRepositories(setup);

    it('finds a key by the hash of its secret, every field intact, never by anything else', async () => {
      const key = sampleKey({ expiresAt: new Date('2027-01-01T00:00:00.000Z'), name: "O'Brien's 👩‍💻 key" });
      await db.repos.apiKeys.create(key, hash('a'));
      expect(await db.repos.apiKeys.findBySecretHash(hash('a'))).toEqual(key);
      expect(await db.repos.apiKeys.findBySecretHash(hash('b'))).toBeNull();
      expect(await db.repos.apiKeys.findBySecretHash('A'.repeat(64))).toBeNull();
      expect(await db.repos.apiKeys.findBySecretHash("' OR 1=1 --")).toBeNull();
    });

    it('refuses a second key with the same secret hash', async () => {
      await db.repos.apiKeys.create(sampleKey(), hash('c'));
      await expect(db.repos.apiKeys.create(sampleKey(), hash('c'))).rejects.toThrow();
    });

    it('lists newest first with keyset paging', async () => {
      const ids = ascendingIds(3);
      for (const [i, id] of ids.entries()) await db.repos.apiKeys.create(sampleKey({ id }), hash(String(i)));
      const first = await db.repos.apiKeys.list({ limit: 2 });
      expect(first.map((k) => k.id)).toEqual([ids[2], ids[1]]);
      expect((await db.repos.apiKeys.list({ limit: 2, beforeId: ids[1]! })).map((k) => k.id)).toEqual([ids[0]]);
    });

    it('records the last use, and a deleted key is found no more', async () => {
      const key = sampleKey();
      await db.repos.apiKeys.create(key, hash('d'));
      const used = new Date('2026-11-26T10:00:00.456Z');
      await db.repos.apiKeys.touch(key.id, used);
      expect((await db.repos.apiKeys.findBySecretHash(hash('d')))?.lastUsedAt).toEqual(used);
      expect(await db.repos.apiKeys.delete(key.id)).toBe(true);
      expect(await db.repos.apiKeys.findBySecretHash(hash('d'))).toBeNull();
      expect(await db.repos.apiKeys.delete(key.id)).toBe(false);
      expect(await db.repos.apiKeys.delete('not-a-uuid')).toBe(false);
    });
  });
}
