import { errors, jwtVerify, SignJWT } from 'jose';
import * as z from 'zod';
import type { SessionClaims, TokenSigner } from '../../ports/runtime.js';

const ALGORITHM = 'HS256';
const ISSUER = 'edge-cms';

/**
 * jose does not type-check custom claims: `user_id` must be a UUID string and
 * `ver` a small whole number, or the token is refused like any forgery.
 */
const ClaimsSchema = z.object({
  user_id: z.uuid(),
  ver: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31),
  iat: z.number(),
});

export interface JoseSignerOptions {
  secret: string;
  lifetimeSeconds: number;
  now: () => Date;
}

export function createJoseTokenSigner(options: JoseSignerOptions): TokenSigner {
  const key = new TextEncoder().encode(options.secret);
  const nowSeconds = () => Math.floor(options.now().getTime() / 1000);
  return {
    async sign({ userId, tokenVersion }: SessionClaims): Promise<string> {
      const iat = nowSeconds();
      return new SignJWT({ user_id: userId, ver: tokenVersion })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setIssuer(ISSUER)
        .setIssuedAt(iat)
        .setExpirationTime(iat + options.lifetimeSeconds)
        .sign(key);
    },
    async verify(token: string): Promise<SessionClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          requiredClaims: ['exp', 'iat'],
          // A future `iat` is only checked by jose when a max age is given.
          maxTokenAge: options.lifetimeSeconds,
          currentDate: options.now(),
        });
        const claims = ClaimsSchema.safeParse(payload);
        if (!claims.success) return null;
        return { userId: claims.data.user_id.toLowerCase(), tokenVersion: claims.data.ver };
      } catch (err) {
        if (err instanceof errors.JOSEError || err instanceof TypeError || err instanceof SyntaxError) return null;
        throw err;
      }
    },
  };
}
