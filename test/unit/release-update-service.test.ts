import { beforeAll, describe, expect, it } from 'vitest';
import { createHttpUpdateFeed } from '../../worker/src/adapters/update/http-update-feed.js';
import { createMemoryUpdateState } from '../../worker/src/adapters/update/memory-update-state.js';
import { ReleaseRefusedError } from '../../worker/src/core/releases/refusal.js';
import { UpdateService, UpdatesUnavailableError } from '../../worker/src/core/releases/update.service.js';
import type {
  ReleaseStager,
  ReleaseSwitcher,
  ReleaseToStage,
  SwitcherStatus,
  SwitchRequest,
  UpdateStateStore,
} from '../../worker/src/ports/update-feed.js';
import { artifactOf, feedOf, makeKey, makeManifest, sign, type TestKey } from '../support/release-fixtures.js';

const FEED = 'https://updates.example/cms/feed.json';
/** What status adds where no supervisor runs (Workers, or these tests without a switcher), with one pinned key. */
const UNSUPERVISED = { supervised: false, previous: null, pending: null, lastApply: null, trustedKeys: 1 };
const tarball = new TextEncoder().encode('release 1.2.0 '.repeat(500));
let key: TestKey;
let files: Map<string, () => Response>;
let staged: { release: ReleaseToStage; bytes: Uint8Array }[];
let logged: string[];

const stager: ReleaseStager = { stage: async (release, bytes) => void staged.push({ release, bytes }) };
const fakeFetch = (async (url: string) =>
  files.get(url)?.() ?? new Response('no', { status: 404 })) as unknown as typeof fetch;

function service(store: UpdateStateStore, over: Partial<ConstructorParameters<typeof UpdateService>[0]> = {}) {
  return new UpdateService({
    feed: createHttpUpdateFeed(FEED, fakeFetch),
    store,
    stager,
    clock: { now: () => new Date('2026-11-20T00:00:00Z') },
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: (m) => void logged.push(m) },
    currentVersion: '1.1.0',
    pinnedKeys: [key.pinned()],
    ...over,
  });
}

async function publish(manifests: Parameters<typeof makeManifest>[0][], body: Uint8Array = tarball) {
  const envs: unknown[] = [];
  for (const m of manifests)
    envs.push(
      await sign(makeManifest({ ...m, artifacts: [await artifactOf(`edge-cms-${m!.version}-node.tar.gz`, tarball)] }), [
        key,
      ]),
    );
  files.set(FEED, () => Response.json(feedOf(envs)));
  for (const m of manifests)
    files.set(`https://updates.example/cms/edge-cms-${m!.version}-node.tar.gz`, () => new Response(body.slice()));
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
    expect(await svc.status()).toEqual({
      current: '1.1.0',
      latest: null,
      available: false,
      staged: null,
      lastCheckedAt: null,
      notes: null,
      ...UNSUPERVISED,
    });
    await publish([
      { version: '1.0.5', sequence: 3 },
      { version: '1.2.0', sequence: 10 },
    ]);
    expect(await svc.check()).toEqual({
      current: '1.1.0',
      latest: '1.2.0',
      available: true,
      staged: null,
      lastCheckedAt: '2026-11-20T00:00:00.000Z',
      notes: 'Fixes and features.',
      ...UNSUPERVISED,
    });
    expect((await store.load()).highestSequenceSeen).toBe(10);
    expect((await svc.download()).staged).toBe('1.2.0');
    expect(staged).toHaveLength(1);
    expect(staged[0]!.release).toMatchObject({
      version: '1.2.0',
      sequence: 10,
      artifactName: 'edge-cms-1.2.0-node.tar.gz',
    });
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
    const err = await service(store)
      .check()
      .catch((e) => e);
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
    await expect(service(createMemoryUpdateState(), { feed: null }).check()).rejects.toBeInstanceOf(
      UpdatesUnavailableError,
    );
    await expect(service(createMemoryUpdateState(), { stager: null }).download()).rejects.toBeInstanceOf(
      UpdatesUnavailableError,
    );
    expect(() => createHttpUpdateFeed('file:///etc/passwd')).toThrow();
  });

  describe('apply and rollback', () => {
    /** The supervisor's side, in memory: accepts unless told why not, records what it was asked. */
    function switcher(status: Partial<SwitcherStatus>, refusal: string | null = null) {
      const asked: SwitchRequest[] = [];
      const sw: ReleaseSwitcher = {
        status: async () => ({ supervised: true, previous: null, pending: null, lastApply: null, ...status }),
        request: async (req) => {
          asked.push(req);
          return { accepted: refusal === null, message: refusal };
        },
      };
      return { sw, asked };
    }
    const stagedStore = () =>
      createMemoryUpdateState({
        highestSequenceSeen: 10,
        lastCheckedAt: null,
        latest: null,
        staged: { version: '1.2.0', sequence: 10, stagedAt: '2026-11-20T00:00:00.000Z' },
      });
    const conflict = async (p: Promise<unknown>) => {
      const e = await p.then(
        () => null,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(UpdatesUnavailableError);
      return (e as Error).message;
    };

    it('asks the supervisor to apply the staged release, then reports what it says', async () => {
      const { sw, asked } = switcher({ previous: '1.0.0' });
      const dto = await service(stagedStore(), { switcher: sw }).apply('owner-id');
      expect(asked).toEqual([{ operation: 'apply', version: '1.2.0', actorId: 'owner-id' }]);
      expect(dto).toMatchObject({ staged: '1.2.0', supervised: true, previous: '1.0.0' });
      await service(stagedStore(), { switcher: sw }).rollback('owner-id');
      expect(asked[1]).toEqual({ operation: 'rollback', version: null, actorId: 'owner-id' });
    });

    it('is a conflict with a reason: Workers, no supervisor, nothing staged, a switch running, no previous, a refusal', async () => {
      expect(await conflict(service(stagedStore(), { switcher: null }).apply('o'))).toContain(
        'wrangler versions deploy',
      );
      expect(await conflict(service(stagedStore(), { switcher: null }).rollback('o'))).toContain('wrangler rollback');
      expect(await conflict(service(stagedStore(), { switcher: null, stager: null }).download())).toContain(
        'docs/releases.md',
      );
      expect(
        await conflict(service(stagedStore(), { switcher: switcher({ supervised: false }).sw }).apply('o')),
      ).toContain('NODE_ENV=production npm start');
      expect(await conflict(service(createMemoryUpdateState(), { switcher: switcher({}).sw }).apply('o'))).toContain(
        'download it first',
      );
      const older = createMemoryUpdateState({
        highestSequenceSeen: 1,
        lastCheckedAt: null,
        latest: null,
        staged: { version: '1.1.0', sequence: 1, stagedAt: 'x' },
      });
      expect(await conflict(service(older, { switcher: switcher({}).sw }).apply('o'))).toContain('download it first');
      const busy = switcher({ pending: { operation: 'apply', version: '1.2.0', since: 'x' } });
      expect(await conflict(service(stagedStore(), { switcher: busy.sw }).apply('o'))).toContain('in progress');
      expect(busy.asked).toEqual([]);
      expect(await conflict(service(stagedStore(), { switcher: switcher({}).sw }).rollback('o'))).toContain(
        'no previous release',
      );
      expect(await conflict(service(stagedStore(), { switcher: switcher({}, 'disk full').sw }).apply('o'))).toContain(
        'disk full',
      );
    });

    it('shows a staged release only while it is newer than the running one', async () => {
      const { sw } = switcher({});
      expect((await service(stagedStore(), { switcher: sw, currentVersion: '1.2.0' }).status()).staged).toBeNull();
      expect((await service(stagedStore(), { switcher: sw }).status()).staged).toBe('1.2.0');
    });
  });
});
