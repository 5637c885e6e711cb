import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../worker/src/core/releases/canonical-json.js';
import { downloadArtifact } from '../../worker/src/core/releases/download.js';
import { type RefusalReason, ReleaseRefusedError } from '../../worker/src/core/releases/refusal.js';
import { compareVersions } from '../../worker/src/core/releases/semver.js';
import {
  type VerifyContext,
  verifyArtifact,
  verifyFeed,
  verifyManifest,
} from '../../worker/src/core/releases/verify-manifest.js';
import { artifactOf, feedOf, makeKey, makeManifest, sign, type TestKey } from '../support/release-fixtures.js';

async function refusal(p: Promise<unknown>): Promise<RefusalReason> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ReleaseRefusedError) return e.reason;
    throw e;
  }
  throw new Error('expected a refusal, got acceptance');
}

let k1: TestKey;
let k2: TestKey;
let stranger: TestKey;
let ctx: VerifyContext;
const tarball = new TextEncoder().encode('the 1.2.0 tarball, pretend it is gzip'.repeat(100));
const oldTarball = new TextEncoder().encode('the 1.1.0 tarball'.repeat(100));

beforeAll(async () => {
  [k1, k2, stranger] = await Promise.all([makeKey(), makeKey(), makeKey()]);
  ctx = {
    pinnedKeys: [k1.pinned(), k2.pinned()],
    currentVersion: '1.1.0',
    highestSequenceSeen: 9,
    now: new Date('2026-11-20T00:00:00Z'),
  };
});

const good = async () => makeManifest({ artifacts: [await artifactOf('edge-cms-1.2.0-node.tar.gz', tarball)] });

describe('verifyManifest', () => {
  it('accepts a manifest signed by a pinned active key (either of the two), and by both', async () => {
    const m = await good();
    expect(await verifyManifest(await sign(m, [k1]), ctx)).toEqual(m);
    expect(await verifyManifest(await sign(m, [k2]), ctx)).toEqual(m);
    expect(await verifyManifest(await sign(m, [k1, k2]), ctx)).toEqual(m);
    // an equal sequence (the same release checked again) is not a rollback
    expect((await verifyManifest(await sign(m, [k1]), { ...ctx, highestSequenceSeen: 10 })).sequence).toBe(10);
  });

  it('survives a JSON round trip with reordered keys (what is signed is canonical)', async () => {
    const env = await sign(await good(), [k1]);
    const reordered = JSON.parse(
      JSON.stringify({
        signatures: env.signatures,
        signed: Object.fromEntries(Object.entries(env.signed as Record<string, unknown>).reverse()),
      }),
    );
    expect((await verifyManifest(reordered, ctx)).version).toBe('1.2.0');
  });

  it('refuses a missing signature', async () => {
    expect(await refusal(verifyManifest({ signed: await good(), signatures: [] }, ctx))).toBe('signature_missing');
    expect(await refusal(verifyManifest({ signed: await good() }, ctx))).toBe('malformed');
  });

  it('refuses a bad signature: tampered manifest, altered signature, malformed entry', async () => {
    const env = await sign(await good(), [k1]);
    const tampered = { ...env, signed: { ...(env.signed as object), version: '9.9.9' } };
    expect(await refusal(verifyManifest(tampered, ctx))).toBe('signature_invalid');
    const moreNotes = { ...env, signed: { ...(env.signed as object), notes: 'Fixes and features!' } };
    expect(await refusal(verifyManifest(moreNotes, ctx))).toBe('signature_invalid');
    const sig = env.signatures[0]!.sig;
    const flipped = { ...env, signatures: [{ keyId: k1.keyId, sig: (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1) }] };
    expect(await refusal(verifyManifest(flipped, ctx))).toBe('signature_invalid');
    // k2's id with k1's signature
    expect(await refusal(verifyManifest({ ...env, signatures: [{ keyId: k2.keyId, sig }] }, ctx))).toBe(
      'signature_invalid',
    );
    expect(await refusal(verifyManifest({ ...env, signatures: [{ keyId: k1.keyId }] }, ctx))).toBe('signature_invalid');
    // one good and one bad signature by pinned keys: refused
    const both = await sign(await good(), [k1, k2]);
    both.signatures[1] = { keyId: k2.keyId, sig };
    expect(await refusal(verifyManifest(both, ctx))).toBe('signature_invalid');
  });

  it('refuses a key that is not pinned', async () => {
    expect(await refusal(verifyManifest(await sign(await good(), [stranger]), ctx))).toBe('key_not_pinned');
  });

  it('refuses a retired key, even with a valid signature; a retired signature beside an active one is ignored', async () => {
    const rotated = { ...ctx, pinnedKeys: [k1.pinned('retired'), k2.pinned()] };
    expect(await refusal(verifyManifest(await sign(await good(), [k1]), rotated))).toBe('key_retired');
    expect((await verifyManifest(await sign(await good(), [k1, k2]), rotated)).version).toBe('1.2.0');
  });

  it('refuses a lower sequence than the highest seen (rollback)', async () => {
    expect(await refusal(verifyManifest(await sign(await good(), [k1]), { ...ctx, highestSequenceSeen: 11 }))).toBe(
      'rollback',
    );
  });

  it('refuses an expired manifest (freeze)', async () => {
    const env = await sign(await good(), [k1]);
    expect(await refusal(verifyManifest(env, { ...ctx, now: new Date('2027-02-01T00:00:00Z') }))).toBe('expired');
    expect(await refusal(verifyManifest(env, { ...ctx, now: new Date('2030-01-01T00:00:00Z') }))).toBe('expired');
  });

  it('refuses a version jump the manifest does not allow (minimum version) and a downgrade', async () => {
    const m = makeManifest({ ...(await good()), minUpdateFrom: '1.1.1' });
    expect(await refusal(verifyManifest(await sign(m, [k1]), ctx))).toBe('version_jump');
    expect(await refusal(verifyManifest(await sign(await good(), [k1]), { ...ctx, currentVersion: '0.9.0' }))).toBe(
      'version_jump',
    );
    expect(await refusal(verifyManifest(await sign(await good(), [k1]), { ...ctx, currentVersion: '1.3.0' }))).toBe(
      'downgrade',
    );
  });

  it('refuses a signed manifest of the wrong shape, target or product', async () => {
    expect(await refusal(verifyManifest(await sign({ ...(await good()), extra: 1 }, [k1]), ctx))).toBe('malformed');
    expect(await refusal(verifyManifest(await sign({ ...(await good()), target: 'workers' }, [k1]), ctx))).toBe(
      'malformed',
    );
    expect(
      await refusal(
        verifyManifest(await sign({ ...(await good()), expiresAt: '2026-10-01T00:00:00.000Z' }, [k1]), ctx),
      ),
    ).toBe('malformed');
    expect(
      await refusal(
        verifyManifest(
          await sign(makeManifest({ artifacts: [{ name: '../../etc/passwd', sha256: '0'.repeat(64), length: 1 }] }), [
            k1,
          ]),
          ctx,
        ),
      ),
    ).toBe('malformed');
    expect(
      await refusal(verifyManifest({ signed: { n: 1.5 }, signatures: [{ keyId: k1.keyId, sig: 'x' }] }, ctx)),
    ).toBe('malformed');
    expect(await refusal(verifyManifest('nope', ctx))).toBe('malformed');
  });
});

describe('verifyFeed', () => {
  it('takes the highest sequence as latest; older (even expired) entries are listed', async () => {
    const old = makeManifest({
      version: '1.1.0',
      sequence: 5,
      expiresAt: '2026-11-02T00:00:00.000Z',
      artifacts: [await artifactOf('edge-cms-1.1.0-node.tar.gz', oldTarball)],
    });
    const feed = feedOf([await sign(old, [k1]), await sign(await good(), [k2])]);
    const { latest, releases } = await verifyFeed(feed, ctx);
    expect(latest.version).toBe('1.2.0');
    expect(releases.map((r) => r.sequence)).toEqual([10, 5]);
  });

  it('refuses a rolled-back feed, an empty feed, a feed with one bad entry, and two manifests with one sequence', async () => {
    const old = makeManifest({ version: '1.1.0', sequence: 5 });
    expect(await refusal(verifyFeed(feedOf([await sign(old, [k1])]), { ...ctx, currentVersion: '1.0.0' }))).toBe(
      'rollback',
    );
    expect(await refusal(verifyFeed(feedOf([]), ctx))).toBe('feed_empty');
    expect(await refusal(verifyFeed(feedOf([await sign(await good(), [k1]), await sign(old, [stranger])]), ctx))).toBe(
      'key_not_pinned',
    );
    const twin = makeManifest({ ...(await good()), notes: 'other notes' });
    expect(await refusal(verifyFeed(feedOf([await sign(await good(), [k1]), await sign(twin, [k1])]), ctx))).toBe(
      'feed_inconsistent',
    );
    expect(await refusal(verifyFeed({ releases: [] }, ctx))).toBe('malformed');
  });
});

describe('verifyArtifact', () => {
  it('accepts the declared bytes', async () => {
    const m = await good();
    expect((await verifyArtifact(m, 'edge-cms-1.2.0-node.tar.gz', tarball)).length).toBe(tarball.byteLength);
  });

  it('refuses a different hash, a different length, an unknown name', async () => {
    const m = await good();
    const flipped = tarball.slice();
    flipped[100]! ^= 1;
    expect(await refusal(verifyArtifact(m, 'edge-cms-1.2.0-node.tar.gz', flipped))).toBe('artifact_hash_mismatch');
    expect(await refusal(verifyArtifact(m, 'edge-cms-1.2.0-node.tar.gz', tarball.slice(0, -1)))).toBe(
      'artifact_truncated',
    );
    const longer = new Uint8Array(tarball.byteLength + 1);
    longer.set(tarball);
    expect(await refusal(verifyArtifact(m, 'edge-cms-1.2.0-node.tar.gz', longer))).toBe('artifact_too_long');
    expect(await refusal(verifyArtifact(m, 'other.tar.gz', tarball))).toBe('artifact_unknown');
  });

  it("refuses mix-and-match: another manifest's artifact under this manifest", async () => {
    const m = await good();
    const old = makeManifest({
      version: '1.1.0',
      sequence: 5,
      artifacts: [await artifactOf('edge-cms-1.1.0-node.tar.gz', oldTarball)],
    });
    expect(await refusal(verifyArtifact(m, 'edge-cms-1.2.0-node.tar.gz', oldTarball, [m, old]))).toBe(
      'artifact_mix_and_match',
    );
    // without the other manifests it is still refused, as a plain mismatch
    expect(await refusal(verifyArtifact(m, 'edge-cms-1.2.0-node.tar.gz', oldTarball))).not.toBeUndefined();
  });
});

describe('downloadArtifact', () => {
  const name = 'edge-cms-1.2.0-node.tar.gz';
  const streamOf = (chunks: Uint8Array[], endless = false) => {
    let i = 0;
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        if (endless) return c.enqueue(new Uint8Array(1024));
        if (i < chunks.length) c.enqueue(chunks[i++]!);
        else c.close();
      },
    });
    return { stream, pulled: () => pulled };
  };
  const fetchOf = (body: ReadableStream | null, init: ResponseInit = {}) =>
    (async () => new Response(body, init)) as unknown as typeof fetch;

  it('downloads and verifies the declared bytes', async () => {
    const m = await good();
    const { stream } = streamOf([tarball.slice(0, 1000), tarball.slice(1000)]);
    const bytes = await downloadArtifact(m, name, 'http://x/a', { fetch: fetchOf(stream) });
    expect(bytes).toEqual(tarball);
  });

  it('aborts an endless body just past the declared length', async () => {
    const m = await good();
    const endless = streamOf([], true);
    expect(await refusal(downloadArtifact(m, name, 'http://x/a', { fetch: fetchOf(endless.stream) }))).toBe(
      'artifact_too_long',
    );
    expect(endless.pulled()).toBeLessThanOrEqual(Math.ceil(tarball.byteLength / 1024) + 3);
  });

  it('refuses a Content-Length above the declared length before reading', async () => {
    const m = await good();
    const s = streamOf([], true);
    const f = fetchOf(s.stream, { headers: { 'content-length': String(tarball.byteLength + 1) } });
    expect(await refusal(downloadArtifact(m, name, 'http://x/a', { fetch: f }))).toBe('artifact_too_long');
  });

  it('refuses a truncated body, a tampered body, a non-200, a failed connection', async () => {
    const m = await good();
    expect(
      await refusal(
        downloadArtifact(m, name, 'http://x/a', { fetch: fetchOf(streamOf([tarball.slice(0, 10)]).stream) }),
      ),
    ).toBe('artifact_truncated');
    const bad = tarball.slice();
    bad[5]! ^= 0xff;
    expect(await refusal(downloadArtifact(m, name, 'http://x/a', { fetch: fetchOf(streamOf([bad]).stream) }))).toBe(
      'artifact_hash_mismatch',
    );
    expect(await refusal(downloadArtifact(m, name, 'http://x/a', { fetch: fetchOf(null, { status: 404 }) }))).toBe(
      'download_failed',
    );
    const broken = (async () => {
      throw new TypeError('connection refused');
    }) as unknown as typeof fetch;
    expect(await refusal(downloadArtifact(m, name, 'http://x/a', { fetch: broken }))).toBe('download_failed');
    const erroring = new ReadableStream({
      start(c) {
        c.enqueue(tarball.slice(0, 10));
        c.error(new Error('reset'));
      },
    });
    expect(await refusal(downloadArtifact(m, name, 'http://x/a', { fetch: fetchOf(erroring) }))).toBe(
      'artifact_truncated',
    );
    expect(await refusal(downloadArtifact(m, 'nope', 'http://x/a', { fetch: fetchOf(null) }))).toBe('artifact_unknown');
  });
});

describe('versions', () => {
  it('orders versions by semver precedence', () => {
    const sorted = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.0.1',
      '1.2.0',
      '1.10.0',
      '2.0.0',
    ];
    for (let i = 0; i < sorted.length; i++) {
      for (let j = 0; j < sorted.length; j++)
        expect(Math.sign(compareVersions(sorted[i]!, sorted[j]!))).toBe(Math.sign(i - j));
    }
  });

  it('canonical JSON sorts keys, drops whitespace, refuses fractions', () => {
    expect(canonicalJson({ b: [1, 'x', null, true], a: { d: -0, c: 'é"\n' } })).toBe(
      '{"a":{"c":"é\\"\\n","d":0},"b":[1,"x",null,true]}',
    );
    expect(() => canonicalJson({ a: 1.5 })).toThrow();
    expect(() => canonicalJson({ a: undefined })).toThrow();
  });
});
