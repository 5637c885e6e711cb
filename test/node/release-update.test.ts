import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { createDirReleaseStager } from '../../worker/src/adapters/update/dir-release-stager.js';
import { createFileUpdateState } from '../../worker/src/adapters/update/file-update-state.js';
import { createHttpUpdateFeed } from '../../worker/src/adapters/update/http-update-feed.js';
import type { PinnedKey } from '../../worker/src/core/releases/pinned-keys.js';
import { UpdateService } from '../../worker/src/core/releases/update.service.js';
import { REPO_ROOT } from '../support/paths.js';
import { type SiteServer, serveSite } from '../support/release-fixtures.js';

/**
 * The Node update path with its real adapters: a feed made by
 * scripts/release.ts served over node:http, state in a JSON file, staging
 * into releases/<version>/. A refused download stages nothing; the rollback
 * guard survives a restart (a new service over the same state file).
 */
let tmp: string;
let site: string;
let releasesDir: string;
let server: SiteServer;
let feedUrl: string;
let pinned: PinnedKey;

function release(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/release.ts'), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stdout + r.stderr);
  return r.stdout;
}

const service = () =>
  new UpdateService({
    feed: createHttpUpdateFeed(feedUrl),
    store: createFileUpdateState(path.join(releasesDir, 'update-state.json')),
    stager: createDirReleaseStager(releasesDir),
    clock: { now: () => new Date() },
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    currentVersion: '0.1.0',
    pinnedKeys: [pinned],
    timeoutMs: 20_000,
  });

beforeAll(async () => {
  await buildNode();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'cms-update-'));
  site = path.join(tmp, 'site');
  releasesDir = path.join(tmp, 'app/releases');
  const key = path.join(tmp, 'keys/k.pem');
  const m = /"keyId":"([0-9a-f]{16})","publicKey":"([A-Za-z0-9_-]{43})"/.exec(release('keygen', '--out', key))!;
  pinned = { keyId: m[1]!, publicKey: m[2]!, status: 'active' };
  release(
    'build',
    '--no-build',
    '--key',
    key,
    '--out',
    site,
    '--version',
    '0.5.0',
    '--force-version',
    '--min-from',
    '0.1.0',
    '--sequence',
    '50',
  );
  server = await serveSite(site);
  feedUrl = `${server.url}/feed.json`;
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('Node update path (http feed, file state, directory stager)', () => {
  it('a tampered download is refused and stages nothing', async () => {
    const name = 'edge-cms-0.5.0-node.tar.gz';
    const bytes = Buffer.from(readFileSync(path.join(site, name)));
    bytes[bytes.length - 100]! ^= 0x80;
    server.overrides.set(name, bytes);
    await expect(service().download()).rejects.toMatchObject({ reason: 'artifact_hash_mismatch' });
    server.overrides.clear();
    expect(readdirSync(releasesDir).filter((f) => f !== 'update-state.json')).toEqual([]);
    expect((await service().status()).staged).toBeNull();
  });

  it('checks, downloads and stages releases/<version>/ with the artifact and its signed manifest', async () => {
    const status = await service().download();
    expect(status).toMatchObject({ current: '0.1.0', latest: '0.5.0', available: true, staged: '0.5.0' });
    const dir = path.join(releasesDir, '0.5.0');
    expect(readdirSync(dir).sort()).toEqual(['edge-cms-0.5.0-node.tar.gz', 'release-manifest.json']);
    expect(
      readFileSync(path.join(dir, 'edge-cms-0.5.0-node.tar.gz')).equals(
        readFileSync(path.join(site, 'edge-cms-0.5.0-node.tar.gz')),
      ),
    ).toBe(true);
    expect(JSON.parse(readFileSync(path.join(dir, 'release-manifest.json'), 'utf8')).signed.sequence).toBe(50);
    expect(statSync(path.join(releasesDir, 'update-state.json')).mode & 0o777).toBe(0o600);
    // a new process (new service, same state file) remembers it
    expect(await service().status()).toMatchObject({ latest: '0.5.0', staged: '0.5.0' });
  });

  it('remembers the highest sequence across restarts: an older feed is a rollback', async () => {
    const older = path.join(tmp, 'older');
    release(
      'build',
      '--no-build',
      '--key',
      path.join(tmp, 'keys/k.pem'),
      '--out',
      older,
      '--version',
      '0.4.0',
      '--force-version',
      '--min-from',
      '0.1.0',
      '--sequence',
      '40',
    );
    rmSync(site, { recursive: true });
    spawnSync('cp', ['-r', older, site]);
    await expect(service().check()).rejects.toMatchObject({ reason: 'rollback' });
    const state = JSON.parse(readFileSync(path.join(releasesDir, 'update-state.json'), 'utf8'));
    expect(state.highestSequenceSeen).toBe(50);
  });
});
