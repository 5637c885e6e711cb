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

// The middleware that adds them to every answer is in answer-headers.ts:
// the build imports this file alone, so it imports nothing.

/** A copy of a response made outside the context, with the headers added (and the request's id, when it has one). */
export function withSecurityHeaders(res: Response, requestId?: string): Response {
  const copy = new Response(res.body, res);
  for (const [name, value] of SECURITY_HEADERS) copy.headers.set(name, value);
  if (requestId) copy.headers.set('X-Request-Id', requestId);
  return copy;
}
