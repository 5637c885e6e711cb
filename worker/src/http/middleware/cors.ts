import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import { prepareHeader } from './plain-headers.js';
import { withSecurityHeaders } from './security-headers.js';

/** Who may call the API from a page on another origin. */
export interface CorsPolicy {
  /** Every origin (`CORS_ORIGINS=*`): answered `Access-Control-Allow-Origin: *`, never with credentials. */
  readonly anyOrigin: boolean;
  allows(origin: string): Promise<boolean>;
}

export const CORS_ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** Bearer tokens travel in `authorization`; the conditional headers serve caching and optimistic writes. */
export const CORS_ALLOW_HEADERS = 'authorization, content-type, if-match, if-none-match';
/** What a script on another origin may read besides the CORS-safelisted headers. */
export const CORS_EXPOSE_HEADERS = 'ETag, Retry-After, X-Request-Id';
/** Ten minutes: Chromium caps a preflight's lifetime at two hours, Firefox at a day. */
export const CORS_MAX_AGE_SECONDS = '600';

function allowOrigin(headers: Headers, policy: CorsPolicy, origin: string): void {
  headers.set('Access-Control-Allow-Origin', policy.anyOrigin ? '*' : origin);
}

/**
 * Cross-origin access (docs/api.md#cross-origin). The outermost middleware:
 * it answers preflights itself, and adds its headers to every answer on the
 * way out, including those made before routing (the read cache) and those
 * another layer might cache, which therefore never carry one origin's
 * permission to another. No credentials are ever allowed: the API's
 * credentials are bearer tokens a script sends itself, not cookies.
 */
export function cors(policy: CorsPolicy): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method') !== undefined) {
      const headers = new Headers({ Vary: 'Origin' });
      if (origin && (await policy.allows(origin))) {
        allowOrigin(headers, policy, origin);
        headers.set('Access-Control-Allow-Methods', CORS_ALLOW_METHODS);
        headers.set('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
        headers.set('Access-Control-Max-Age', CORS_MAX_AGE_SECONDS);
      }
      return withSecurityHeaders(new Response(null, { status: 204, headers }), c.get('requestId'));
    }
    // Whether an answer carries the header depends on the Origin: caches must keep them apart.
    prepareHeader(c, 'Vary', 'Origin', true);
    const allowed = origin !== undefined && (await policy.allows(origin));
    await next();
    if (!allowed) return;
    try {
      c.res.headers.set('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
    } catch {
      // Immutable headers (a response passed through from elsewhere): answer with a copy.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
    }
    allowOrigin(c.res.headers, policy, origin);
    c.res.headers.set('Vary', mergeVary(c.res.headers.get('Vary')));
  };
}

const mergeVary = (vary: string | null) =>
  vary && /(^|,)\s*origin\s*(,|$)/i.test(vary) ? vary : vary ? `${vary}, Origin` : 'Origin';
