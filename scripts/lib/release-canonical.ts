/**
 * The signer's copy of worker/src/core/releases/canonical-json.ts (the
 * verifier's). Same rules, same bytes: test/unit/release-canonical.test.ts
 * checks the two against each other. See docs/releases.md.
 */
export function canonicalJson(value) {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(value)) throw new TypeError(`canonical JSON allows safe integers only, not ${value}`);
      return String(value === 0 ? 0 : value);
    case 'string':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw new TypeError('canonical JSON allows plain objects only');
      const keys = Object.keys(value).sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonical JSON cannot write a ${typeof value}`);
  }
}

export const SIGNING_CONTEXT = 'edge-cms release manifest v1\n';

/** The exact bytes an Ed25519 signature covers. */
export function signedBytes(manifest) {
  return Buffer.from(SIGNING_CONTEXT + canonicalJson(manifest), 'utf8');
}
