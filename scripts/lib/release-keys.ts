import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { signedBytes } from '../../worker/src/core/releases/canonical-json.ts';
import type { Manifest, SignedManifest } from '../../worker/src/core/releases/manifest.ts';

/**
 * Ed25519 release keys. The private key is a PKCS#8 PEM file outside the
 * repository, mode 0600; the public key is published as the base64url of
 * its raw 32 bytes with an id = the first 16 hex digits of their SHA-256
 * (the shape of worker/src/core/releases/pinned-keys.ts). The signed bytes
 * come from the verifier's own canonical JSON, so the two cannot drift.
 */
export interface PublicKeyInfo {
  keyId: string;
  publicKey: string;
}

export function publicKeyInfo(publicKey: KeyObject): PublicKeyInfo {
  const jwk = publicKey.export({ format: 'jwk' });
  const raw = Buffer.from(jwk.x ?? '', 'base64url');
  return { keyId: createHash('sha256').update(raw).digest('hex').slice(0, 16), publicKey: raw.toString('base64url') };
}

/** Refuses a path inside `repoRoot`: private keys never live in the repository. */
export function assertOutsideRepo(file: string, repoRoot: string): void {
  const rel = path.relative(path.resolve(repoRoot), path.resolve(file));
  if (!rel.startsWith('..') && !path.isAbsolute(rel)) {
    throw new Error(`${file} is inside the repository; keep private release keys outside it`);
  }
}

export function generateKeyFile(file: string, repoRoot: string): PublicKeyInfo {
  assertOutsideRepo(file, repoRoot);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  // 'wx': never overwrite an existing key.
  writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  return publicKeyInfo(publicKey);
}

export function loadPrivateKey(file: string, repoRoot: string): KeyObject {
  assertOutsideRepo(file, repoRoot);
  const mode = statSync(file).mode & 0o777;
  if (mode & 0o077) throw new Error(`${file} is readable by others (mode ${mode.toString(8)}); chmod 600 it`);
  const key = createPrivateKey(readFileSync(file));
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${file} is not an Ed25519 private key`);
  return key;
}

/**
 * A private key held in an environment variable (a CI secret): the PEM text
 * itself, never written to a file by the project.
 */
export function loadPrivateKeyFromEnv(name: string, env: NodeJS.ProcessEnv): KeyObject {
  const pem = env[name];
  if (!pem) throw new Error(`the environment variable ${name} is not set (it should hold a PKCS#8 PEM private key)`);
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new Error(`${name} does not hold a PEM private key`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${name} is not an Ed25519 private key`);
  return key;
}

/** A signed manifest envelope: { signed, signatures: [{ keyId, sig }] }, self-checked. */
export function signManifest(manifest: Manifest, privateKeys: readonly KeyObject[]): SignedManifest {
  const bytes = signedBytes(manifest);
  const signatures = privateKeys.map((key) => {
    const pub = createPublicKey(key);
    const sig = sign(null, bytes, key);
    if (!verify(null, bytes, pub, sig)) throw new Error('a fresh signature does not verify');
    return { keyId: publicKeyInfo(pub).keyId, sig: sig.toString('base64url') };
  });
  return { signed: manifest, signatures };
}
