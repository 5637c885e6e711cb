import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, SIGNING_CONTEXT, signedBytes } from '../../worker/src/core/releases/canonical-json.js';
import { verifySignature } from '../../worker/src/core/releases/verify-manifest.js';
import { REPO_ROOT } from '../support/paths.js';

/** The signer (scripts/lib/release-canonical.ts) and the verifier must write the same bytes. */
describe('canonical JSON: signer and verifier agree', () => {
  it('on arbitrary JSON values of integers, strings, booleans and null', async () => {
    const signer = await import(path.join(REPO_ROOT, 'scripts/lib/release-canonical.ts'));
    expect(signer.SIGNING_CONTEXT).toBe(SIGNING_CONTEXT);
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
        expect(signer.canonicalJson(v)).toBe(ours);
        expect(canonicalJson(JSON.parse(ours))).toBe(ours);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the signed bytes (a fixed vector; docs/releases.md)', () => {
  const manifest = {
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
    const { generateKeyPairSync } = await import('node:crypto');
    const keys = await import(path.join(REPO_ROOT, 'scripts/lib/release-keys.ts'));
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const info = keys.publicKeyInfo(publicKey);
    const envelope = keys.signManifest(manifest, [privateKey]);
    expect(envelope.signatures[0].keyId).toBe(info.keyId);
    const parsed = await verifySignature(JSON.parse(JSON.stringify(envelope)), [{ ...info, status: 'active' }]);
    expect(parsed.version).toBe('0.3.0');
    // and one changed byte breaks it
    await expect(
      verifySignature({ ...envelope, signed: { ...manifest, sequence: 201 } }, [{ ...info, status: 'active' }]),
    ).rejects.toMatchObject({ reason: 'signature_invalid' });
  });
});
