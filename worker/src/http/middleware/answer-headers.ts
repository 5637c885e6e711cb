import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from '../env.js';
import { SECURE_HEADERS_OPTIONS, SECURITY_HEADERS } from './security-headers.js';

/**
 * A public read answered without credentials (articles, sites, feeds, and
 * every uploaded image and variant) may be used by pages on other origins:
 * `<img>` from a site's own domain, `fetch()` under CORS. Everything else
 * (the admin, answers to an authenticated request) stays `same-origin`.
 */
export const shareablePublicRead: MiddlewareHandler<AppEnv> = (c, next) => {
  if (c.req.header('authorization') === undefined) c.header('Cross-Origin-Resource-Policy', 'cross-origin');
  return next();
};

/**
 * Every header of a public read asked without `Authorization` and without
 * `Origin` except its own (id, type, validator, lifetime): the security
 * headers, `shareablePublicRead`'s and cors()'s `Vary`. A plain record:
 * @hono/node-server writes such a response without building a Headers
 * object (undici's validating Headers was ~9% of a cached read's CPU).
 */
export const PUBLIC_READ_HEADERS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(SECURITY_HEADERS),
  'Cross-Origin-Resource-Policy': 'cross-origin',
  Vary: 'Origin',
};

const settled = () => Promise.resolve();

/**
 * The security headers of every answer made through the app: Hono's
 * secureHeaders, run once the answer is made, except on a public read's
 * answer made whole (`wholeAnswer`, public-read.ts), which already carries
 * them and whose plain record would otherwise become a Headers object here.
 */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  const secure = secureHeaders(SECURE_HEADERS_OPTIONS);
  return async (c, next) => {
    await next();
    // Its headers are set after its own `next`, which has already run.
    if (c.res !== c.get('wholeAnswer')) await secure(c, settled);
  };
}
