import { beforeAll, describe, expect, it } from 'vitest';
import { createHttpUpdateFeed } from '../../worker/src/adapters/update/http-update-feed.js';
import { createMemoryUpdateState } from '../../worker/src/adapters/update/memory-update-state.js';
import { ReleaseRefusedError } from '../../worker/src/core/releases/refusal.js';
import { UpdateService, UpdatesUnavailableError } from '../../worker/src/core/releases/update.service.js';
import type { ReleaseStager, ReleaseToStage, UpdateStateStore } from '../../worker/src/ports/update-feed.js';
import { artifactOf, feedOf, makeKey, makeManifest, sign, type TestKey } from '../support/release-fixtures.js';

const FEED = 'https://updates.example/cms/feed.json';
const tarball = new TextEncoder().encode('release 1.2.0 '.repeat(500));
let key: TestKey;
let files: Map<string, () => Response>;
let staged: { release: ReleaseToStage; bytes: Uint8Array }[];
let logged: string[];

const stager: ReleaseStager = { stage: async (release, bytes) => void staged.push({ release, bytes }) };
const fakeFetch = (async (url: string) => files.get(url)?.() ?? new Response('no', { status: 404 })) as unknown as typeof fetch;

function service(store: UpdateStateStore, over: Partial<ConstructorParameters<typeof UpdateService>[0]> = {}) {
  return new UpdateService({
    feed: createHttpUpdateFeed(FEED, fakeFetch),
    store,
    stager,
    clock: { now: () => new Date('2026-11-20T00:00:00Z') },
    logger: { info: () => {}, error: (m) => void logged.push(m) },
    currentVersion: '1.1.0',
    pinnedKeys: [key.pinned()],
    ...over,
  });
}

async function publish(manifests: Parameters<typeof makeManifest>[0][], body: Uint8Array = tarball) {
  const envs: unknown[] = [];
  for (const m of manifests) envs.push(await sign(makeManifest({ ...m, artifacts: [await artifactOf(`edge-cms-${m!.version}-node.tar.gz`, tarball)] }), [key]));
  files.set(FEED, () => Response.json(feedOf(envs)));
  for (const m of manifests) files.set(`https://updates.example/cms/edge-cms-${m!.version}-node.tar.gz`, () => new Response(body.slice()));
}

beforeAll(async () => {
  key = await makeKey();
});

describe('UpdateService', () => {
  it('reports status, checks, downloads and stages the latest release once', async () => {
    files = new Map();
    staged = [];
    logged = [];
    const store = createMemoryUpdateState();
    const svc = service(store);
    expect(await svc.status()).toEqual({ current: '1.1.0', latest: null, available: false, staged: null, lastCheckedAt: null, notes: null });
    await publish([{ version: '1.0.5', sequence: 3 }, { version: '1.2.0', sequence: 10 }]);
    expect(await svc.check()).toEqual({ current: '1.1.0', latest: '1.2.0', available: true, staged: null, lastCheckedAt: '2026-11-20T00:00:00.000Z', notes: 'Fixes and features.' });
    expect((await store.load()).highestSequenceSeen).toBe(10);
    expect((await svc.download()).staged).toBe('1.2.0');
    expect(staged).toHaveLength(1);
    expect(staged[0]!.release).toMatchObject({ version: '1.2.0', sequence: 10, artifactName: 'edge-cms-1.2.0-node.tar.gz' });
    expect((staged[0]!.release.signedManifest as { signatures: unknown[] }).signatures).toHaveLength(1);
    expect(staged[0]!.bytes).toEqual(tarball);
    await svc.download(); // already staged: not again
    expect(staged).toHaveLength(1);
  });

  it('refuses a tampered artifact: nothing staged, logged, rethrown', async () => {
    files = new Map();
    staged = [];
    logged = [];
    const bad = tarball.slice();
    bad[3]! ^= 1;
    await publish([{ version: '1.2.0', sequence: 10 }], bad);
    const store = createMemoryUpdateState();
    await expect(service(store).download()).rejects.toMatchObject({ reason: 'artifact_hash_mismatch' });
    expect(staged).toEqual([]);
    expect((await store.load()).staged).toBeNull();
    expect(logged).toEqual(['update refused (artifact_hash_mismatch)']);
  });

  it('refuses a rolled-back feed after a newer one was seen, and keeps the state', async () => {
    files = new Map();
    staged = [];
    logged = [];
    const store = createMemoryUpdateState();
    await publish([{ version: '1.2.0', sequence: 10 }]);
    await service(store).check();
    await publish([{ version: '1.1.5', sequence: 7 }]);
    const err = await service(store).check().catch((e) => e);
    expect(err).toBeInstanceOf(ReleaseRefusedError);
    expect(err.reason).toBe('rollback');
    expect((await store.load()).highestSequenceSeen).toBe(10);
    expect((await service(store).status()).latest).toBe('1.2.0');
  });

  it('refuses a feed that is not JSON or not served', async () => {
    files = new Map([[FEED, () => new Response('<html>')]]);
    await expect(service(createMemoryUpdateState()).check()).rejects.toMatchObject({ reason: 'malformed' });
    files = new Map();
    await expect(service(createMemoryUpdateState()).check()).rejects.toMatchObject({ reason: 'download_failed' });
  });

  it('does not download an older or equal version; without a feed or a stager it says so', async () => {
    files = new Map();
    staged = [];
    await publish([{ version: '1.1.0', sequence: 10, minUpdateFrom: '1.0.0' }]);
    expect((await service(createMemoryUpdateState()).download()).available).toBe(false);
    expect(staged).toEqual([]);
    await expect(service(createMemoryUpdateState(), { feed: null }).check()).rejects.toBeInstanceOf(UpdatesUnavailableError);
    await expect(service(createMemoryUpdateState(), { stager: null }).download()).rejects.toBeInstanceOf(UpdatesUnavailableError);
    expect(() => createHttpUpdateFeed('file:///etc/passwd')).toThrow();
  });
});
