import file from './release-keys.json' with { type: 'json' };

/**
 * The Ed25519 public keys a release manifest may be signed by, read from the
 * one committed file `release-keys.json` beside this module (a fork pins its
 * own keys there: docs/releases.md, "Pinning keys"). A retired key stays
 * listed so that its signatures are refused with a clear reason.
 *
 * keyId: the first 16 hex digits of SHA-256(raw public key), checked when
 * the key is first used. publicKey: base64url of the raw 32 bytes.
 * The private halves are never in the repository.
 */
export interface PinnedKey {
  keyId: string;
  publicKey: string;
  status: 'active' | 'retired';
  note?: string;
}

/** A malformed key file fails the build's first start loudly, not a later update check. */
export function parsePinnedKeys(doc: unknown): readonly PinnedKey[] {
  const keys = (doc as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('release-keys.json: "keys" must be a list');
  const seen = new Set<string>();
  return Object.freeze(
    keys.map((raw: unknown, i) => {
      const k = raw as Partial<PinnedKey>;
      const where = `release-keys.json: key ${i + 1}`;
      if (typeof k.keyId !== 'string' || !/^[0-9a-f]{16}$/.test(k.keyId))
        throw new Error(`${where}: keyId must be 16 lowercase hex digits`);
      if (typeof k.publicKey !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(k.publicKey))
        throw new Error(`${where}: publicKey must be the base64url of 32 bytes`);
      if (k.status !== 'active' && k.status !== 'retired')
        throw new Error(`${where}: status must be "active" or "retired"`);
      if (seen.has(k.keyId)) throw new Error(`${where}: keyId ${k.keyId} is listed twice`);
      seen.add(k.keyId);
      return Object.freeze({
        keyId: k.keyId,
        publicKey: k.publicKey,
        status: k.status,
        ...(typeof k.note === 'string' ? { note: k.note } : {}),
      });
    }),
  );
}

export const PINNED_RELEASE_KEYS: readonly PinnedKey[] = parsePinnedKeys(file);

/** Keys that may sign today: none means no release can be trusted, whatever the feed says. */
export const activeKeyCount = (keys: readonly PinnedKey[]): number => keys.filter((k) => k.status === 'active').length;
