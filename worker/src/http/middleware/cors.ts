import type { Context, MiddlewareHandler, Next } from 'hono';
import { cors as honoCors } from 'hono/cors';
import type { AppEnv } from '../env.js';
import { withSecurityHeaders } from './security-headers.js';

/** Who may call the API from a page on another origin. */
export interface CorsPolicy {
  /** Every origin (`CORS_ORIGINS=*`): answered `Access-Control-Allow-Origin: *`, never with credentials. */
  readonly anyOrigin: boolean;
  allows(origin: string): Promise<boolean>;
}

export const CORS_ALLOW_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Bearer tokens travel in `authorization`; the conditional headers serve caching and optimistic writes. */
export const CORS_ALLOW_HEADERS = ['authorization', 'content-type', 'if-match', 'if-none-match'];
/** What a script on another origin may read besides the CORS-safelisted headers. */
export const CORS_EXPOSE_HEADERS = ['ETag', 'Retry-After', 'X-Request-Id'];
/** Ten minutes: Chromium caps a preflight's lifetime at two hours, Firefox at a day. */
export const CORS_MAX_AGE_SECONDS = 600;

const isPreflight = (req: Request) =>
  req.method === 'OPTIONS' && req.headers.get('access-control-request-method') !== null;

/**
 * Cross-origin access (docs/api.md#cross-origin), with Hono's cors for a
 * permitted origin. The outermost middleware after the request log: it
 * answers preflights itself, with the security headers (the layer that adds
 * them runs inside it), and adds its headers to every answer on the way out,
 * including those made before routing (the read cache) and those another
 * layer might cache, which therefore never carry one origin's permission to
 * another. An origin that is not permitted gets no CORS header at all, only
 * `Vary: Origin`. No credentials are ever allowed: the API's credentials are
 * bearer tokens a script sends itself, not cookies.
 */
export function cors(policy: CorsPolicy): MiddlewareHandler<AppEnv> {
  const permitted = honoCors({
    // Reached only for an origin the policy allows.
    origin: (origin) => (policy.anyOrigin ? '*' : origin),
    allowMethods: CORS_ALLOW_METHODS,
    allowHeaders: CORS_ALLOW_HEADERS,
    exposeHeaders: CORS_EXPOSE_HEADERS,
    maxAge: CORS_MAX_AGE_SECONDS,
  });
  const withOrigin = async (c: Context<AppEnv>, next: Next, origin: string, preflight: boolean) => {
    // Hono's cors takes any OPTIONS for a preflight; one without Access-Control-Request-Method is the router's 405.
    if ((preflight || c.req.method !== 'OPTIONS') && (await policy.allows(origin))) {
      const answer = await permitted(c, next);
      return answer && withSecurityHeaders(answer, c.get('requestId'));
    }
    return without(c, next, preflight);
  };
  // Not async itself: a request without Origin (a server, a same-origin page) only passes through.
  return (c, next) => {
    const origin = c.req.header('origin');
    const preflight = isPreflight(c.req.raw);
    return origin === undefined ? without(c, next, preflight) : withOrigin(c, next, origin, preflight);
  };
}

/** The answer for an origin that may not call the API (or none): no CORS header, only `Vary: Origin`. */
function without(c: Context<AppEnv>, next: Next, preflight: boolean): ReturnType<MiddlewareHandler<AppEnv>> {
  if (preflight) {
    const answer = new Response(null, { status: 204, headers: { Vary: 'Origin' } });
    return Promise.resolve(withSecurityHeaders(answer, c.get('requestId')));
  }
  // Whether an answer carries the headers depends on the Origin: caches must keep them apart.
  c.header('Vary', 'Origin', { append: true });
  return next();
}
