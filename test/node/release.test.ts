import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { downloadArtifact } from '../../worker/src/core/releases/download.js';
import type { PinnedKey } from '../../worker/src/core/releases/pinned-keys.js';
import { type RefusalReason, ReleaseRefusedError } from '../../worker/src/core/releases/refusal.js';
import { type VerifyContext, verifyFeed } from '../../worker/src/core/releases/verify-manifest.js';
import { REPO_ROOT } from '../support/paths.js';

/**
 * End to end: scripts/release.ts on the real build into a temporary
 * directory, the feed served by a plain node:http static server on
 * 127.0.0.1, then fetched, verified and downloaded as an updater would —
 * and refused when the artifact is tampered, truncated or endless, or the
 * feed is rolled back.
 */
const RELEASE = path.join(REPO_ROOT, 'scripts/release.ts');
let tmp: string;
let out: string;
let server: Server;
let base: string;
let pinned: PinnedKey[];
let mode: 'normal' | 'tampered' | 'truncated' | 'short' | 'endless' | 'old-feed' = 'normal';
let endlessSent = 0;
let endlessClosed: Promise<void> = Promise.resolve();

function release(...args: string[]) {
  return releaseWith({}, ...args);
}

function releaseWith(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, [RELEASE, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { status: r.status, out: r.stdout + r.stderr };
}

function pinnedFrom(keygenOutput: string): PinnedKey {
  const m = /"keyId":"([0-9a-f]{16})","publicKey":"([A-Za-z0-9_-]{43})","status":"active"/.exec(keygenOutput);
  if (!m) throw new Error(`no public key in: ${keygenOutput}`);
  return { keyId: m[1]!, publicKey: m[2]!, status: 'active' };
}

async function refusal(p: Promise<unknown>): Promise<RefusalReason> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ReleaseRefusedError) return e.reason;
    throw e;
  }
  throw new Error('expected a refusal');
}

function serveFile(res: ServerResponse, file: string) {
  const bytes = readFileSync(file);
  switch (mode) {
    case 'tampered': {
      const copy = Buffer.from(bytes);
      copy[copy.length >> 1]! ^= 0x01;
      res.writeHead(200, { 'content-length': copy.length }).end(copy);
      return;
    }
    case 'truncated': // promises the full length, then the connection drops
      res.writeHead(200, { 'content-length': bytes.length });
      res.write(bytes.subarray(0, bytes.length >> 1), () => res.destroy());
      return;
    case 'short': // a clean end, half the bytes
      res.writeHead(200).end(bytes.subarray(0, bytes.length >> 1));
      return;
    case 'endless': {
      // chunked, no length, never ends: the client must stop reading
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      endlessClosed = new Promise((resolve) => res.on('close', resolve));
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) endlessSent += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
      return;
    }
    default:
      res.writeHead(200, { 'content-length': bytes.length }).end(bytes);
  }
}

beforeAll(async () => {
  await buildNode();
  if (!existsSync(path.join(REPO_ROOT, 'admin-qwik/dist/index.html'))) {
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build-admin.ts')], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
    });
  }
  tmp = mkdtempSync(path.join(os.tmpdir(), 'cms-release-'));
  out = path.join(tmp, 'feed');

  const k1 = release('keygen', '--out', path.join(tmp, 'keys/release-1.pem'));
  expect(k1.status, k1.out).toBe(0);
  pinned = [pinnedFrom(k1.out)];

  // An old release, then the current one, into the same feed directory.
  const old = release(
    'build',
    '--no-build',
    '--key',
    path.join(tmp, 'keys/release-1.pem'),
    '--out',
    out,
    '--version',
    '0.2.0',
    '--force-version',
    '--min-from',
    '0.1.0',
    '--sequence',
    '100',
    '--notes',
    'old',
  );
  expect(old.status, old.out).toBe(0);
  const cur = release(
    'build',
    '--no-build',
    '--key',
    path.join(tmp, 'keys/release-1.pem'),
    '--out',
    out,
    '--version',
    '0.3.0',
    '--force-version',
    '--min-from',
    '0.1.0',
    '--sequence',
    '200',
    '--notes',
    'Signed releases.',
  );
  expect(cur.status, cur.out).toBe(0);

  server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    if (name === 'feed.json' && mode === 'old-feed') {
      const feed = JSON.parse(readFileSync(path.join(out, 'feed.json'), 'utf8'));
      feed.releases = feed.releases.filter((r: { signed: { sequence: number } }) => r.signed.sequence === 100);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(feed));
      return;
    }
    const file = path.join(out, name);
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || !existsSync(file)) return void res.writeHead(404).end();
    if (name.endsWith('.tar.gz')) return serveFile(res, file);
    res.writeHead(200, { 'content-type': 'application/json' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}, 180_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function latest(ctx: Partial<VerifyContext> = {}) {
  const feedUrl = new URL('feed.json', base);
  const feed = await (await fetch(feedUrl)).json();
  const verified = await verifyFeed(feed, {
    pinnedKeys: pinned,
    currentVersion: '0.1.0',
    highestSequenceSeen: 0,
    now: new Date(),
    ...ctx,
  });
  const artifact = verified.latest.artifacts[0]!;
  return { ...verified, artifact, url: new URL(artifact.name, feedUrl) };
}

describe('scripts/release.ts end to end', () => {
  it('keeps the private key out of the repository and private', () => {
    expect(statSync(path.join(tmp, 'keys/release-1.pem')).mode & 0o777).toBe(0o600);
    const inside = release('keygen', '--out', path.join(REPO_ROOT, 'release-test.pem'));
    expect(inside.status).not.toBe(0);
    expect(inside.out).toMatch(/inside the repository/);
    expect(existsSync(path.join(REPO_ROOT, 'release-test.pem'))).toBe(false);
    // sequences only grow
    const back = release(
      'build',
      '--no-build',
      '--key',
      path.join(tmp, 'keys/release-1.pem'),
      '--out',
      out,
      '--version',
      '0.4.0',
      '--force-version',
      '--min-from',
      '0.1.0',
      '--sequence',
      '150',
    );
    expect(back.status).not.toBe(0);
    expect(back.out).toMatch(/sequences only grow/);
    // a version already published is not silently replaced
    const again = release(
      'build',
      '--no-build',
      '--key',
      path.join(tmp, 'keys/release-1.pem'),
      '--out',
      out,
      '--version',
      '0.3.0',
      '--force-version',
      '--min-from',
      '0.1.0',
    );
    expect(again.status).not.toBe(0);
    expect(again.out).toMatch(/already released/);
    // the manifest's version is the one the built server reports
    const lie = release(
      'build',
      '--no-build',
      '--key',
      path.join(tmp, 'keys/release-1.pem'),
      '--out',
      out,
      '--version',
      '9.0.0',
      '--min-from',
      '0.1.0',
    );
    expect(lie.status).not.toBe(0);
    expect(lie.out).toMatch(/differs from package.json/);
  });

  it('signs with a key held in an environment variable (a CI secret), and says when this checkout does not pin it', async () => {
    const pem = readFileSync(path.join(tmp, 'keys/release-1.pem'), 'utf8');
    const envOut = path.join(tmp, 'feed-env');
    const args = ['build', '--no-build', '--out', envOut, '--version', '0.5.0', '--force-version'];
    const missing = releaseWith({}, ...args, '--key-env', 'CMS_TEST_NO_SUCH_KEY', '--min-from', '0.1.0');
    expect(missing.status).not.toBe(0);
    expect(missing.out).toMatch(/CMS_TEST_NO_SUCH_KEY is not set/);
    const built = releaseWith(
      { CMS_TEST_RELEASE_KEY: pem },
      ...args,
      '--key-env',
      'CMS_TEST_RELEASE_KEY',
      '--min-from',
      '0.1.0',
    );
    expect(built.status, built.out).toBe(0);
    expect(built.out).toContain(`key ${pinned[0]!.keyId} is not pinned as active in release-keys.json`);
    const manifest = JSON.parse(readFileSync(path.join(envOut, 'edge-cms-0.5.0-node.manifest.json'), 'utf8')) as {
      signatures: { keyId: string }[];
    };
    expect(manifest.signatures.map((x) => x.keyId)).toEqual([pinned[0]!.keyId]);
  });

  it('serves a feed whose latest release verifies, downloads and holds the Node server', async () => {
    mode = 'normal';
    const { latest: m, releases, artifact, url } = await latest();
    expect(m).toMatchObject({
      version: '0.3.0',
      sequence: 200,
      minUpdateFrom: '0.1.0',
      notes: 'Signed releases.',
      target: 'node',
    });
    expect(releases.map((r) => r.version)).toEqual(['0.3.0', '0.2.0']);
    const bytes = await downloadArtifact(m, artifact.name, url, { others: releases });
    expect(bytes.byteLength).toBe(artifact.length);
    expect(Buffer.from(bytes).equals(readFileSync(path.join(out, artifact.name)))).toBe(true);

    const listing = execFileSync('tar', ['-tzf', path.join(out, artifact.name)], { encoding: 'utf8' }).split('\n');
    for (const f of [
      'dist/node/server.mjs',
      'admin-qwik/dist/index.html',
      'package.json',
      'package-lock.json',
      'drizzle/sqlite/migrations/meta/_journal.json',
      'drizzle/postgres/migrations/meta/_journal.json',
      'drizzle/mysql/migrations/meta/_journal.json',
    ]) {
      expect(listing).toContain(f);
    }
    expect(
      listing.filter(
        (f) => f.includes('node_modules') || f.endsWith('.pem') || f.startsWith('worker/') || f.startsWith('test/'),
      ),
    ).toEqual([]);
  });

  it('refuses a tampered artifact', async () => {
    const { latest: m, releases, artifact, url } = await latest();
    mode = 'tampered';
    expect(await refusal(downloadArtifact(m, artifact.name, url, { others: releases }))).toBe('artifact_hash_mismatch');
  });

  it('refuses a truncated artifact: a dropped connection and a clean short body', async () => {
    const { latest: m, artifact, url } = await latest();
    mode = 'truncated';
    expect(await refusal(downloadArtifact(m, artifact.name, url))).toBe('artifact_truncated');
    mode = 'short';
    expect(await refusal(downloadArtifact(m, artifact.name, url))).toBe('artifact_truncated');
  });

  it('stops reading an endless artifact just past its declared length', async () => {
    const { latest: m, artifact, url } = await latest();
    mode = 'endless';
    endlessSent = 0;
    expect(await refusal(downloadArtifact(m, artifact.name, url))).toBe('artifact_too_long');
    await endlessClosed; // the server saw the client hang up
    // what the server managed to push: the declared length plus socket buffers, not forever
    expect(endlessSent).toBeLessThan(artifact.length + 32 * 1024 * 1024);
  });

  it('refuses a rolled-back feed once a newer sequence was seen', async () => {
    mode = 'normal';
    const seen = (await latest()).latest.sequence;
    mode = 'old-feed';
    expect(await refusal(latest({ highestSequenceSeen: seen }))).toBe('rollback');
    // and a feed signed by a key that is not pinned
    mode = 'normal';
    expect(await refusal(latest({ pinnedKeys: [{ ...pinned[0]!, keyId: '0000000000000000' }] }))).toBe(
      'key_not_pinned',
    );
    expect(await refusal(latest({ pinnedKeys: [{ ...pinned[0]!, status: 'retired' }] }))).toBe('key_retired');
  });
});
