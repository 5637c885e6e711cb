/**
 * The Ed25519 public keys a release manifest may be signed by. Two are
 * pinned so that one can be rotated while the other keeps working
 * (docs/releases.md, "Keys and rotation"). A retired key stays listed as
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

// Keys 1 and 2 (2026-11-25) were replaced before any release was signed or
// installed: their private halves were lost with the build machine. The
// private halves of keys 3 and 4 were lost the same way (2026-11-26): both
// must be replaced before the first release (docs/releases.md, "Keys and
// rotation"); until then no release can be signed.
export const PINNED_RELEASE_KEYS: readonly PinnedKey[] = Object.freeze([
  {
    keyId: '26773b6dcfda6aee',
    publicKey: 'zhCcUduJeZfNHiliTaXoPkT285DP6T9QxON0HeHUAjo',
    status: 'active',
    note: 'release key 3, made 2026-11-26',
  },
  {
    keyId: '9e3fee411f0d70c8',
    publicKey: 'arUSlt1IftJOUW-e1Wq6s-4_a9ihpMfxNiPxK9jeX7Y',
    status: 'active',
    note: 'release key 4, made 2026-11-26',
  },
]);
