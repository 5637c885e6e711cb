import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson, SIGNING_CONTEXT } from '../../worker/src/core/releases/canonical-json.js';
import { REPO_ROOT } from '../support/paths.js';

/** The signer (scripts/lib/release-canonical.mjs) and the verifier must write the same bytes. */
describe('canonical JSON: signer and verifier agree', () => {
  it('on arbitrary JSON values of integers, strings, booleans and null', async () => {
    const signer = await import(path.join(REPO_ROOT, 'scripts/lib/release-canonical.mjs'));
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
