import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeDatabase, type NodeDialect, openNodeDatabase } from '../../worker/src/adapters/db/node-database.js';
import { buildRepositories } from '../../worker/src/app/services.js';
import type { Repositories } from '../../worker/src/ports/repositories.js';
import { runActivityLogContract } from '../contract/activity-log.contract.js';
import { runRateLimiterContract } from '../contract/rate-limiter.contract.js';
import { domainError, newId, type SetupRepositories } from './db-contract.js';
import { MIGRATIONS_ROOT, type NodeDbHarness } from './db-node-harness.js';
import { runRepositoryContracts } from './repository-suites.js';

// Generous on a loaded CI machine; test/node/db-outage.test.ts proves the deadline itself.
const SUITE_TIMEOUT_MS = 10_000;

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
  let repos: Repositories | undefined;

  beforeAll(async () => {
    harness = await makeHarness();
    db = await openNodeDatabase(harness.url, { migrationsRoot: MIGRATIONS_ROOT, timeoutMs: SUITE_TIMEOUT_MS });
    repos = buildRepositories(db.kit);
  });
  afterAll(async () => {
    await db?.close();
    await harness?.destroy();
  });

  const setup: SetupRepositories = async () => {
    if (!harness || !repos) throw new Error('the database did not open');
    await harness.wipe();
    return { repos, fixtures: harness.fixtures, cleanup: async () => undefined };
  };

  runRepositoryContracts(name, setup);
  runActivityLogContract(name, async (maxBytes) => {
    if (!harness || !db) throw new Error('the database did not open');
    await harness.wipe();
    return { store: db.activityLog(maxBytes), cleanup: async () => undefined };
  });
  runRateLimiterContract(name, async () => {
    if (!harness || !db) throw new Error('the database did not open');
    await harness.wipe();
    return { limiter: db.rateLimiter, cleanup: async () => undefined };
  });

  describe(`openNodeDatabase: ${name}`, () => {
    it('reports its dialect', () => {
      expect(db?.dialect).toBe(dialect);
    });

    it('opens an already migrated database again without re-applying anything', async () => {
      const again = await openNodeDatabase(harness!.url, {
        migrationsRoot: MIGRATIONS_ROOT,
        timeoutMs: SUITE_TIMEOUT_MS,
      });
      try {
        const repos = buildRepositories(again.kit);
        await repos.ping();
        expect(await repos.users.findById(newId())).toBeNull();
      } finally {
        await again.close();
      }
    });

    it('answers unavailable, not a driver error, once the connection is gone', async () => {
      const closed = await openNodeDatabase(harness!.url, {
        migrationsRoot: MIGRATIONS_ROOT,
        timeoutMs: SUITE_TIMEOUT_MS,
      });
      // Built while open, as the app builds them at start-up: a connection lost later.
      const repos = buildRepositories(closed.kit);
      await closed.close();
      await expect(repos.users.findById(newId())).rejects.toMatchObject(domainError('unavailable'));
      await expect(repos.articles.list({ limit: 5 })).rejects.toMatchObject(domainError('unavailable'));
      await expect(repos.ping()).rejects.toMatchObject(domainError('unavailable'));
      // The rate limiter fails closed the same way.
      const rule = { name: 'login', limit: 5, windowSeconds: 60 };
      await expect(closed.rateLimiter.take(rule, '203.0.113.1', new Date())).rejects.toMatchObject(
        domainError('unavailable'),
      );
      await expect(closed.rateLimiter.refund(rule, '203.0.113.1', new Date())).rejects.toMatchObject(
        domainError('unavailable'),
      );
    });

    it('prunes rate-limit rows whose arrival time has passed, at most once a minute', async () => {
      await harness!.wipe();
      // A fresh limiter: its first take prunes.
      const fresh = await openNodeDatabase(harness!.url, {
        migrationsRoot: MIGRATIONS_ROOT,
        timeoutMs: SUITE_TIMEOUT_MS,
      });
      try {
        const rule = { name: 'prune', limit: 5, windowSeconds: 60 };
        const t0 = Date.now();
        await fresh.rateLimiter.take(rule, 'old', new Date(t0));
        await fresh.rateLimiter.take(rule, 'recent', new Date(t0 + 50_000));
        const keys = async () => (await harness!.query('SELECT tat_ms FROM rate_limits')).length;
        // 50 s after the first prune: nothing pruned yet, although 'old' has expired.
        expect(await keys()).toBe(2);
        await fresh.rateLimiter.take(rule, 'new', new Date(t0 + 61_000));
        // 'old' (arrival t0 + 12 s) went; 'recent' (t0 + 62 s) and 'new' stay.
        expect(await keys()).toBe(2);
        expect((await fresh.rateLimiter.take({ ...rule, limit: 1 }, 'recent', new Date(t0 + 61_000))).allowed).toBe(
          false,
        );
      } finally {
        await fresh.close();
      }
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
