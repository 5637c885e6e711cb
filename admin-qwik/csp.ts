/**
 * The Content-Security-Policy the admin is built for and tested against
 * (test/browser/admin-static.test.ts). The server sends the same policy on
 * every response; import this string to compare rather than retyping it.
 *
 * No 'unsafe-inline' for scripts: scripts/build-admin.ts moves every inline
 * script Qwik emits into /build/inline/*.js and fails if one remains.
 */
export const ADMIN_CSP = [
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
