import type { KeyObject } from 'node:crypto';

/** Types for tests that sign with the release CLI's own signer. */
export function loadPrivateKey(file: string, repoRoot: string): KeyObject;
export function signManifest<T extends object>(
  manifest: T,
  privateKeys: KeyObject[],
): { signed: T; signatures: { keyId: string; sig: string }[] };
export function publicKeyInfo(publicKey: KeyObject): { keyId: string; publicKey: string };
