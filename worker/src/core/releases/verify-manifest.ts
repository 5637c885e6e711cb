import { base64urlDecode, keyIdOf, sha256Hex } from './bytes.js';
import { canonicalJson, signedBytes } from './canonical-json.js';
import {
  type Artifact,
  FeedSchema,
  type Manifest,
  ManifestSchema,
  SignatureSchema,
  SignedManifestSchema,
} from './manifest.js';
import type { PinnedKey } from './pinned-keys.js';
import { refuse } from './refusal.js';
import { compareVersions } from './semver.js';

/**
 * Verification of signed release manifests, feeds and artifacts: Web Crypto
 * only, so the same code runs in workerd and on Node. Every failure throws
 * ReleaseRefusedError with a reason code (refusal.ts); nothing here stages
 * or writes anything.
 */
export interface VerifyContext {
  pinnedKeys: readonly PinnedKey[];
  /** The running version (package.json's). */
  currentVersion: string;
  /** The highest sequence already accepted (persisted by the caller); 0 when none. */
  highestSequenceSeen: number;
  now: Date;
}

/**
 * Checks the envelope's signatures over the canonical bytes of `signed`, then
 * its shape. Accepted when at least one signature by an active pinned key
 * verifies and no signature by a pinned key fails. Signatures by unknown or
 * retired keys are otherwise ignored (so a manifest may be signed by the old
 * and the new key while one is rotated out).
 */
export async function verifySignature(input: unknown, pinnedKeys: readonly PinnedKey[]): Promise<Manifest> {
  const envelope = SignedManifestSchema.safeParse(input);
  if (!envelope.success) return refuse('malformed', 'not a signed manifest ({ signed, signatures })');
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = signedBytes(envelope.data.signed) as Uint8Array<ArrayBuffer>;
  } catch (e) {
    return refuse('malformed', `manifest is not canonical JSON: ${(e as Error).message}`);
  }
  const signatures = envelope.data.signatures;
  if (signatures.length === 0) return refuse('signature_missing', 'the manifest carries no signature');

  let verified = false;
  let sawRetired = false;
  for (const raw of signatures) {
    const parsed = SignatureSchema.safeParse(raw);
    if (!parsed.success) return refuse('signature_invalid', 'a signature entry is not { keyId, sig }');
    const { keyId, sig } = parsed.data;
    const pinned = pinnedKeys.find((k) => k.keyId === keyId);
    if (!pinned) continue;
    if (pinned.status === 'retired') {
      sawRetired = true;
      continue;
    }
    const ok = await ed25519Verify(pinned, base64urlDecode(sig), bytes);
    if (!ok) return refuse('signature_invalid', `the signature by key ${keyId} does not verify`);
    verified = true;
  }
  if (!verified) {
    return sawRetired
      ? refuse('key_retired', 'signed only by retired keys')
      : refuse(
          'key_not_pinned',
          `signed only by keys that are not pinned (${signatures.map((s) => (s as { keyId?: unknown }).keyId).join(', ')})`,
        );
  }

  const manifest = ManifestSchema.safeParse(envelope.data.signed);
  if (!manifest.success) {
    const first = manifest.error.issues[0];
    return refuse(
      'malformed',
      `signed manifest has the wrong shape${first ? ` at ${first.path.join('.')}: ${first.message}` : ''}`,
    );
  }
  if (Date.parse(manifest.data.expiresAt) <= Date.parse(manifest.data.issuedAt))
    return refuse('malformed', 'expiresAt is not after issuedAt');
  const names = new Set(manifest.data.artifacts.map((a) => a.name));
  if (names.size !== manifest.data.artifacts.length) return refuse('malformed', 'two artifacts share a name');
  return manifest.data;
}

/** The update policy on a manifest whose signature holds. */
export function checkPolicy(manifest: Manifest, ctx: Omit<VerifyContext, 'pinnedKeys'>): Manifest {
  if (manifest.sequence < ctx.highestSequenceSeen) {
    refuse('rollback', `sequence ${manifest.sequence} is lower than ${ctx.highestSequenceSeen}, already seen`);
  }
  if (ctx.now.getTime() >= Date.parse(manifest.expiresAt))
    refuse('expired', `the manifest expired at ${manifest.expiresAt}`);
  if (compareVersions(manifest.version, ctx.currentVersion) < 0) {
    refuse('downgrade', `version ${manifest.version} is older than the running ${ctx.currentVersion}`);
  }
  if (compareVersions(ctx.currentVersion, manifest.minUpdateFrom) < 0) {
    refuse(
      'version_jump',
      `${manifest.version} updates only from ${manifest.minUpdateFrom} or later; this is ${ctx.currentVersion}`,
    );
  }
  return manifest;
}

/** Signature, then rollback, freeze, downgrade and version-jump checks. */
export async function verifyManifest(input: unknown, ctx: VerifyContext): Promise<Manifest> {
  return checkPolicy(await verifySignature(input, ctx.pinnedKeys), ctx);
}

export interface VerifiedFeed {
  /** The release with the highest sequence, which passed every check. */
  latest: Manifest;
  /** Every release in the feed, signatures verified (older ones may be expired). */
  releases: Manifest[];
}

/**
 * A feed is an unsigned list of signed manifests. Every entry's signature
 * must hold (one bad entry refuses the whole feed); the entry with the
 * highest sequence is the latest and must pass the policy. A feed whose
 * newest entry is older than what was already seen is a rollback.
 */
export async function verifyFeed(input: unknown, ctx: VerifyContext): Promise<VerifiedFeed> {
  const feed = FeedSchema.safeParse(input);
  if (!feed.success) return refuse('malformed', 'not a release feed ({ schema, updatedAt, releases })');
  if (feed.data.releases.length === 0) return refuse('feed_empty', 'the feed lists no release');
  const releases: Manifest[] = [];
  const bySequence = new Map<number, string>();
  for (const entry of feed.data.releases) {
    const manifest = await verifySignature(entry, ctx.pinnedKeys);
    const canonical = canonicalJson(manifest);
    const seen = bySequence.get(manifest.sequence);
    if (seen !== undefined && seen !== canonical)
      refuse('feed_inconsistent', `two different manifests carry sequence ${manifest.sequence}`);
    bySequence.set(manifest.sequence, canonical);
    releases.push(manifest);
  }
  releases.sort((a, b) => b.sequence - a.sequence);
  return { latest: checkPolicy(releases[0]!, ctx), releases };
}

/**
 * Checks downloaded bytes against the manifest's declared length and sha256.
 * `others` (the feed's other manifests) only sharpen the reason: bytes that
 * are another release's artifact are reported as mix-and-match.
 */
export async function verifyArtifact(
  manifest: Manifest,
  name: string,
  bytes: Uint8Array<ArrayBuffer>,
  others: readonly Manifest[] = [],
): Promise<Artifact> {
  const artifact = manifest.artifacts.find((a) => a.name === name);
  if (!artifact) return refuse('artifact_unknown', `${manifest.version} declares no artifact ${name}`);
  if (bytes.byteLength > artifact.length)
    return refuse('artifact_too_long', `${name} has more than the declared ${artifact.length} bytes`);
  const digest = await sha256Hex(bytes);
  if (digest === artifact.sha256 && bytes.byteLength === artifact.length) return artifact;
  const owner = others.find((m) => m.sequence !== manifest.sequence && m.artifacts.some((a) => a.sha256 === digest));
  if (owner)
    return refuse(
      'artifact_mix_and_match',
      `${name} is the artifact of ${owner.version} (sequence ${owner.sequence}), not of ${manifest.version}`,
    );
  if (bytes.byteLength < artifact.length)
    return refuse('artifact_truncated', `${name} has ${bytes.byteLength} of the declared ${artifact.length} bytes`);
  return refuse('artifact_hash_mismatch', `${name} has sha256 ${digest}, the manifest declares ${artifact.sha256}`);
}

const keyCache = new WeakMap<PinnedKey, Promise<CryptoKey>>();

async function ed25519Verify(
  pinned: PinnedKey,
  sig: Uint8Array<ArrayBuffer>,
  data: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  if (sig.byteLength !== 64) return false;
  let key = keyCache.get(pinned);
  if (!key) {
    key = importPinned(pinned);
    keyCache.set(pinned, key);
  }
  return crypto.subtle.verify({ name: 'Ed25519' }, await key, sig, data);
}

async function importPinned(pinned: PinnedKey): Promise<CryptoKey> {
  const raw = base64urlDecode(pinned.publicKey);
  if (raw.byteLength !== 32 || (await keyIdOf(raw)) !== pinned.keyId) {
    throw new Error(
      `pinned key ${pinned.keyId} is misconfigured: its id is not the SHA-256 prefix of its 32-byte public key`,
    );
  }
  return crypto.subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']);
}
