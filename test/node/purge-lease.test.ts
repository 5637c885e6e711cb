import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeDatabase, openNodeDatabase } from '../../worker/src/adapters/db/node-database.js';
import { systemClock, uuidV7Ids } from '../../worker/src/adapters/runtime/system.runtime.js';
import { buildRepositories } from '../../worker/src/app/services.js';
import { DomainError } from '../../worker/src/core/domain/errors.js';
import { DEFAULT_PURGE_SETTINGS } from '../../worker/src/features/purge/purge.entities.js';
import {
  createPurgeService,
  PURGE_LEASE,
  type PurgeDeps,
  runScheduledPurge,
} from '../../worker/src/features/purge/purge.service.js';
import type { BlobStore } from '../../worker/src/ports/blob-store.js';
import { MIGRATIONS_ROOT, mysqlHarness, type NodeDbHarness, postgresHarness } from '../support/db-node-harness.js';
import { memoryBlobStore } from '../support/memory-blob-store.js';

/** Listing storage takes a while, so both instances are inside a purge at once unless the lease stops one. */
function slowBlobs(): BlobStore {
  const blobs = memoryBlobStore();
  return {
    ...blobs,
    async list(prefix, cursor, limit) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      return blobs.list(prefix, cursor, limit);
    },
  };
}

const instanceDeps = (db: NodeDatabase, blobs: BlobStore): PurgeDeps => ({
  repos: buildRepositories(db.kit),
  blobs,
  clock: systemClock,
  ids: uuidV7Ids,
  logError: (message, err) => {
    throw Object.assign(new Error(message), { cause: err });
  },
  dropVariants: async () => undefined,
});

describe.each([
  ['PostgreSQL', postgresHarness],
  ['MariaDB', mysqlHarness],
])('scheduled purge on two Node instances sharing %s', (_name, makeHarness) => {
  let harness: NodeDbHarness;
  let one: NodeDatabase;
  let two: NodeDatabase;
  beforeAll(async () => {
    harness = await makeHarness();
    one = await openNodeDatabase(harness.url, { migrationsRoot: MIGRATIONS_ROOT });
    two = await openNodeDatabase(harness.url, { migrationsRoot: MIGRATIONS_ROOT });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await harness?.destroy();
  });

  it('runs the purge on exactly one instance per due time', async () => {
    const blobs = slowBlobs();
    await buildRepositories(one.kit).purge.saveSettings(
      { ...DEFAULT_PURGE_SETTINGS, enabled: true, intervalHours: 1 },
      new Date(),
    );
    const now = new Date();
    const [a, b] = await Promise.all([
      runScheduledPurge(instanceDeps(one, blobs), now),
      runScheduledPurge(instanceDeps(two, blobs), now),
    ]);
    expect([a, b].filter((run) => run !== null)).toHaveLength(1);
    expect(await buildRepositories(two.kit).purge.listRuns({ limit: 10 })).toHaveLength(1);
    // The lease was given back: once due again, the other instance may run.
    const later = new Date(now.getTime() + 2 * 60 * 60 * 1000);
    expect(await runScheduledPurge(instanceDeps(a ? two : one, blobs), later)).not.toBeNull();
    expect(await buildRepositories(one.kit).purge.listRuns({ limit: 10 })).toHaveLength(2);
  });

  it('refuses a manual purge on one instance while the scheduled one runs on the other, naming it', async () => {
    const blobs = slowBlobs();
    const later = new Date(Date.now() + 10 * 60 * 60 * 1000);
    const scheduled = runScheduledPurge(instanceDeps(one, blobs), later);
    // Wait for the state, not a time: the scheduled run holds the lease.
    const repos = buildRepositories(two.kit);
    while ((await repos.leases.holder(PURGE_LEASE, new Date())) === null) await new Promise((r) => setImmediate(r));
    const refused = await createPurgeService(instanceDeps(two, blobs))
      .run(false)
      .catch((err: unknown) => err);
    const run = await scheduled;
    expect(run).not.toBeNull();
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'conflict', message: `A purge is already running: run ${run!.id}` });
    expect(await repos.leases.holder(PURGE_LEASE, new Date())).toBeNull();
  });

  it('records a failed run with a classified reason, never the error text', async () => {
    const text = 'Failed query: insert into "article_images" values ($1) params: secret';
    const logged: unknown[] = [];
    const deps: PurgeDeps = {
      ...instanceDeps(one, memoryBlobStore()),
      blobs: {
        ...memoryBlobStore(),
        list: async () => {
          throw new Error(text);
        },
      },
      logError: (_message, err) => logged.push(err),
    };
    const run = await createPurgeService(deps).run(false);
    expect(run).toMatchObject({ status: 'failed', error: 'internal error' });
    const [stored] = await buildRepositories(two.kit).purge.listRuns({ limit: 1 });
    expect(stored).toMatchObject({ id: run.id, status: 'failed', error: 'internal error' });
    // The operator still finds the error itself in the log.
    expect(logged).toEqual([expect.objectContaining({ message: text })]);
  });
});
