/**
 * Canonical JSON for signed release manifests (a strict subset of RFC 8785,
 * JCS). The bytes are the UTF-8 encoding of:
 *
 * - objects: `{` members `}`; members sorted by key in UTF-16 code-unit
 *   order (JavaScript's default sort), written `"key":value`, joined by `,`;
 *   no whitespace anywhere;
 * - arrays: `[` values joined by `,` `]`, in their order;
 * - strings: as `JSON.stringify` writes them (ES2019 well-formed: `"` `\\`
 *   and control characters escaped, `\u` lowercase hex for lone
 *   surrogates, everything else literal UTF-8);
 * - numbers: safe integers only, in plain decimal (`-0` is written `0`);
 *   fractions, exponents beyond 2^53 and non-finite numbers are refused, so
 *   no number-formatting rule is left to argue about;
 * - `true`, `false`, `null`.
 *
 * `undefined`, functions, symbols and bigints are refused, not skipped.
 * scripts/lib/release-canonical.ts is the same function for the signer;
 * test/unit/release-canonical.test.ts keeps the two identical.
 */
export function canonicalJson(value: unknown): string {
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
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonical JSON cannot write a ${typeof value}`);
  }
}

/** What an Ed25519 signature covers: a domain tag, a newline, the canonical manifest. */
export const SIGNING_CONTEXT = 'edge-cms release manifest v1\n';

export function signedBytes(manifest: unknown): Uint8Array {
  return new TextEncoder().encode(SIGNING_CONTEXT + canonicalJson(manifest));
}
