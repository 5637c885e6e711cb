import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeDatabase, type NodeDatabase, type NodeDialect } from '../../worker/src/adapters/db/node-database.js';
import { runArticlesRepositoryContract } from '../contract/articles-repository.contract.js';
import { runImagesRepositoryContract } from '../contract/images-repository.contract.js';
import { runUsersRepositoryContract } from '../contract/users-repository.contract.js';
import { domainError, newId, type SetupRepositories } from './db-contract.js';
import { MIGRATIONS_ROOT, type NodeDbHarness } from './db-node-harness.js';

export interface NodeDatabaseSuite {
  harness(): NodeDbHarness;
}

/**
 * Opens the dialect through openNodeDatabase (migrations included) once per
 * file, runs every repository contract against it, and checks the
 * behaviour of the opened database itself.
 */
export function runNodeDatabaseSuites(
  name: string,
  dialect: NodeDialect,
  makeHarness: () => Promise<NodeDbHarness>,
): NodeDatabaseSuite {
  let harness: NodeDbHarness | undefined;
  let db: NodeDatabase | undefined;

  beforeAll(async () => {
    harness = await makeHarness();
    db = await openNodeDatabase(harness.url, { migrationsRoot: MIGRATIONS_ROOT });
  });
  afterAll(async () => {
    await db?.close();
    await harness?.destroy();
  });

  const setup: SetupRepositories = async () => {
    if (!harness || !db) throw new Error('the database did not open');
    await harness.wipe();
    return { repos: db.repos, fixtures: harness.fixtures, cleanup: async () => undefined };
  };

  runUsersRepositoryContract(name, setup);
  runArticlesRepositoryContract(name, setup);
  runImagesRepositoryContract(name, setup);

  describe(`openNodeDatabase: ${name}`, () => {
    it('reports its dialect', () => {
      expect(db?.dialect).toBe(dialect);
    });

    it('opens an already migrated database again without re-applying anything', async () => {
      const again = await openNodeDatabase(harness!.url, { migrationsRoot: MIGRATIONS_ROOT });
      try {
        await again.repos.ping();
        expect(await again.repos.users.findById(newId())).toBeNull();
      } finally {
        await again.close();
      }
    });

    it('answers unavailable, not a driver error, once the connection is gone', async () => {
      const closed = await openNodeDatabase(harness!.url, { migrationsRoot: MIGRATIONS_ROOT });
      await closed.close();
      await expect(closed.repos.users.findById(newId())).rejects.toMatchObject(domainError('unavailable'));
      await expect(closed.repos.articles.list({ limit: 5 })).rejects.toMatchObject(domainError('unavailable'));
      await expect(closed.repos.ping()).rejects.toMatchObject(domainError('unavailable'));
    });
  });

  return { harness: () => harness! };
}

/** A closed port answers at once: the open must fail fast with 'unavailable', not hang. */
export function runUnreachableServerTest(url: string): void {
  it('fails fast with unavailable when the server is unreachable', async () => {
    const started = Date.now();
    await expect(openNodeDatabase(url, { migrationsRoot: MIGRATIONS_ROOT })).rejects.toMatchObject(
      domainError('unavailable'),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });
}
