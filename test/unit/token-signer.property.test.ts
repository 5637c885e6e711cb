import fc from 'fast-check';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createJoseTokenSigner } from '../../worker/src/adapters/auth/jose.token-signer.js';

const SECRET = 'property-test-secret-0123456789abcdef';
const signer = createJoseTokenSigner({ secret: SECRET, lifetimeSeconds: 3600, now: () => new Date() });
const key = new TextEncoder().encode(SECRET);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function sign(claims: Record<string, unknown>) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: 'edge-cms', iat: now, exp: now + 600, ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(key);
}

describe('session token checks (properties)', () => {
  it('accept a correctly signed token only when user_id is a UUID string and ver a whole number in 0..2³¹', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.uuid(), fc.anything(), fc.string(), fc.integer(), fc.double(), fc.array(fc.uuid())),
        fc.oneof(fc.nat(1000), fc.anything(), fc.double(), fc.integer({ min: -5, max: -1 })),
        async (userId, ver) => {
          const result = await signer.verify(await sign({ user_id: userId, ver }));
          const valid =
            typeof userId === 'string' &&
            UUID.test(userId) &&
            Number.isInteger(ver) &&
            (ver as number) >= 0 &&
            (ver as number) <= 2 ** 31;
          expect(result).toEqual(
            valid ? { userId: (userId as string).toLowerCase(), tokenVersion: (ver as number) + 0 } : null,
          ); // + 0: JSON has no -0
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary text, and refuses it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.base64String(),
          fc.array(fc.base64String(), { minLength: 3, maxLength: 3 }).map((p) => p.join('.')),
        ),
        async (token) => {
          expect(await signer.verify(token)).toBeNull();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses any change to a valid token', async () => {
    const token = await sign({ user_id: '0190a000-0000-7000-8000-000000000001', ver: 0 });
    expect(await signer.verify(token)).not.toBeNull();
    await fc.assert(
      fc.asyncProperty(fc.nat(token.length - 1), fc.constantFrom(...'ABCDEFabcdef0123456789-_.'), async (i, ch) => {
        fc.pre(token[i] !== ch);
        const tampered = token.slice(0, i) + ch + token.slice(i + 1);
        const result = await signer.verify(tampered);
        // Base64url's last character can carry unused bits; such a change decodes to the same bytes.
        if (result !== null)
          expect(Buffer.from(tampered.split('.')[2] ?? '', 'base64url')).toEqual(
            Buffer.from(token.split('.')[2]!, 'base64url'),
          );
      }),
      { numRuns: 300 },
    );
  });
});
