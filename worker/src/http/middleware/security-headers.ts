import type { MiddlewareHandler } from 'hono';

/**
 * The one policy for every response: API, errors, images, the admin's pages.
 * Scripts only from our origin (the admin's build moves Qwik's inline scripts
 * into files), WebAssembly allowed for photon, nothing may frame us.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "worker-src 'self' blob:",
].join('; ');

export const SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  // Browsers ignore it over plain HTTP, so it is safe to send always.
  ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()'],
];

/**
 * Hono's secureHeaders sets its headers on the finished Response, which on
 * Node turns @hono/node-server's cheap response into a full one (even
 * reading `c.res.headers` does) and cost about a third of a cached article
 * read. Here the headers are prepared before the handler runs, so every
 * response made through the context carries them from the start. The one
 * response made elsewhere, a static file from the asset server, goes
 * through `withSecurityHeaders`.
 */
export const securityHeaders = (): MiddlewareHandler => async (c, next) => {
  for (const [name, value] of SECURITY_HEADERS) c.header(name, value);
  await next();
};

/**
 * A public read answered without credentials (articles, sites, feeds, and
 * every uploaded image and variant) may be used by pages on other origins:
 * `<img>` from a site's own domain, `fetch()` under CORS. Everything else
 * (the admin, answers to an authenticated request) stays `same-origin`.
 */
export const shareablePublicRead: MiddlewareHandler = async (c, next) => {
  if (c.req.header('authorization') === undefined) c.header('Cross-Origin-Resource-Policy', 'cross-origin');
  await next();
};

/** A copy of a response made outside the context, with the headers added (and the request's id, when it has one). */
export function withSecurityHeaders(res: Response, requestId?: string): Response {
  const copy = new Response(res.body, res);
  for (const [name, value] of SECURITY_HEADERS) copy.headers.set(name, value);
  if (requestId) copy.headers.set('X-Request-Id', requestId);
  return copy;
}
