import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { publicKeyInfo, signManifest } from '../../scripts/lib/release-keys.ts';
import { canonicalJson, signedBytes } from '../../worker/src/core/releases/canonical-json.js';
import type { Manifest } from '../../worker/src/core/releases/manifest.js';
import { verifySignature } from '../../worker/src/core/releases/verify-manifest.js';

/**
 * The signer (scripts/lib/release-keys.ts) imports this very function, so the
 * two cannot drift; what is left to check is that the bytes are a fixed
 * point of JSON: parsing them gives the value back, and writing that again
 * gives the same bytes.
 */
describe('canonical JSON', () => {
  it('round-trips arbitrary JSON values of integers, strings, booleans and null', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.maxSafeInteger(),
        fc.string({ unit: 'binary' }),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.string({ unit: 'binary' }), tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (v) => {
        const ours = canonicalJson(v);
        expect(JSON.parse(ours)).toEqual(v);
        expect(canonicalJson(JSON.parse(ours))).toBe(ours);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the signed bytes (a fixed vector; docs/releases.md)', () => {
  const manifest: Manifest = {
    schema: 'edge-cms.release-manifest/1',
    product: 'edge-cms',
    target: 'node',
    version: '0.3.0',
    sequence: 200,
    issuedAt: '2026-11-25T00:00:00.000Z',
    expiresAt: '2027-02-23T00:00:00.000Z',
    minUpdateFrom: '0.1.0',
    notes: 'Ünïcode "quoted"\nline',
    artifacts: [{ name: 'edge-cms-0.3.0-node.tar.gz', sha256: 'ab'.repeat(32), length: 42 }],
  };

  it('are the domain tag and the canonical manifest, byte for byte', () => {
    const expected =
      'edge-cms release manifest v1\n' +
      `{"artifacts":[{"length":42,"name":"edge-cms-0.3.0-node.tar.gz","sha256":"${'ab'.repeat(32)}"}],` +
      '"expiresAt":"2027-02-23T00:00:00.000Z","issuedAt":"2026-11-25T00:00:00.000Z","minUpdateFrom":"0.1.0",' +
      '"notes":"Ünïcode \\"quoted\\"\\nline","product":"edge-cms","schema":"edge-cms.release-manifest/1","sequence":200,"target":"node","version":"0.3.0"}';
    expect(new TextDecoder().decode(signedBytes(manifest))).toBe(expected);
  });

  it('signed by the script (node:crypto), verify in the core (Web Crypto)', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const info = publicKeyInfo(publicKey);
    const envelope = signManifest(manifest, [privateKey]);
    expect(envelope.signatures[0]?.keyId).toBe(info.keyId);
    const parsed = await verifySignature(JSON.parse(JSON.stringify(envelope)), [{ ...info, status: 'active' }]);
    expect(parsed.version).toBe('0.3.0');
    // and one changed byte breaks it
    await expect(
      verifySignature({ ...envelope, signed: { ...manifest, sequence: 201 } }, [{ ...info, status: 'active' }]),
    ).rejects.toMatchObject({ reason: 'signature_invalid' });
  });
});
