/**
 * The Ed25519 public keys a release manifest may be signed by. Two are
 * pinned so that one can be rotated while the other keeps working
 * (docs/releases.md, "Rotating a key"). A retired key stays listed as
 * 'retired' so that its signatures are refused with a clear reason.
 *
 * keyId: the first 16 hex digits of SHA-256(raw public key), checked when
 * the key is first used. publicKey: base64url of the raw 32 bytes.
 * The private halves are not in the repository.
 */
export interface PinnedKey {
  keyId: string;
  publicKey: string;
  status: 'active' | 'retired';
  note?: string;
}

export const PINNED_RELEASE_KEYS: readonly PinnedKey[] = Object.freeze([
  { keyId: '4a11ebd92ddf918c', publicKey: '3Swksn1QrdFQLAateYBmCxETzGYJbOK1DzPLdKYmhR4', status: 'active', note: 'release key 1, made 2026-11-25' },
  { keyId: 'ae108879f7c084a9', publicKey: 'claqb7093scXdvv5pWCl023hrI0_Z_4G57oRadpTjoQ', status: 'active', note: 'release key 2, made 2026-11-25' },
]);
