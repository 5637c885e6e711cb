import { base64urlEncode, keyIdOf, sha256Hex } from '../../worker/src/core/releases/bytes.js';
import { signedBytes } from '../../worker/src/core/releases/canonical-json.js';
import { FEED_SCHEMA, MANIFEST_SCHEMA, type Manifest } from '../../worker/src/core/releases/manifest.js';
import type { PinnedKey } from '../../worker/src/core/releases/pinned-keys.js';

/** Release keys and manifests made at test time (Web Crypto, like the verifier). */
export interface TestKey {
  keyId: string;
  publicKey: string;
  privateKey: CryptoKey;
  pinned(status?: PinnedKey['status']): PinnedKey;
}

export async function makeKey(): Promise<TestKey> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
  const keyId = await keyIdOf(raw);
  const publicKey = base64urlEncode(raw);
  return { keyId, publicKey, privateKey: pair.privateKey, pinned: (status = 'active') => ({ keyId, publicKey, status }) };
}

export async function artifactOf(name: string, bytes: Uint8Array<ArrayBuffer>) {
  return { name, sha256: await sha256Hex(bytes), length: bytes.byteLength };
}

export function makeManifest(overrides: Partial<Manifest> = {}): Manifest {
  return {
    schema: MANIFEST_SCHEMA,
    product: 'edge-cms',
    target: 'node',
    version: '1.2.0',
    sequence: 10,
    issuedAt: '2026-11-01T00:00:00.000Z',
    expiresAt: '2027-02-01T00:00:00.000Z',
    minUpdateFrom: '1.0.0',
    notes: 'Fixes and features.',
    artifacts: [{ name: 'edge-cms-1.2.0-node.tar.gz', sha256: '0'.repeat(64), length: 1 }],
    ...overrides,
  };
}

export async function sign(manifest: unknown, keys: TestKey[]) {
  const bytes = signedBytes(manifest) as Uint8Array<ArrayBuffer>;
  const signatures = await Promise.all(
    keys.map(async (k) => ({ keyId: k.keyId, sig: base64urlEncode(new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, k.privateKey, bytes))) })),
  );
  return { signed: manifest, signatures };
}

export function feedOf(releases: unknown[]) {
  return { schema: FEED_SCHEMA, updatedAt: '2026-11-01T00:00:00.000Z', releases };
}
