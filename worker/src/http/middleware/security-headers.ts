/**
 * The one policy for every response: API, errors, images, the admin's pages.
 * Scripts only from our origin (the admin's build moves Qwik's inline scripts
 * into files), WebAssembly allowed for photon, nothing may frame us.
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
};

/** The directives as the header says them (`defaultSrc` → `default-src 'self'`), joined as Hono's secureHeaders joins them. */
export const CONTENT_SECURITY_POLICY = Object.entries(CSP_DIRECTIVES)
  .map(([name, values]) => [name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), ...values].join(' '))
  .join('; ');

const PERMISSIONS_POLICY: Record<string, string[]> = { camera: [], microphone: [], geolocation: [], payment: [] };

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
  [
    'Permissions-Policy',
    Object.keys(PERMISSIONS_POLICY)
      .map((feature) => `${feature}=()`)
      .join(', '),
  ],
];

/**
 * The same headers as options of Hono's secureHeaders (http/app.ts), which
 * sets them on every answer made through the app, on both targets. `overwrite: false` keeps a
 * header a layer chose for its answer (a public read's
 * `Cross-Origin-Resource-Policy: cross-origin`); the headers Hono would add
 * beyond this list are switched off. A plain object: this file imports nothing.
 */
export const SECURE_HEADERS_OPTIONS = {
  contentSecurityPolicy: CSP_DIRECTIVES,
  xContentTypeOptions: 'nosniff',
  xFrameOptions: 'DENY',
  referrerPolicy: 'strict-origin-when-cross-origin',
  strictTransportSecurity: 'max-age=63072000; includeSubDomains',
  crossOriginResourcePolicy: 'same-origin',
  crossOriginOpenerPolicy: 'same-origin',
  originAgentCluster: '?1',
  xDnsPrefetchControl: 'off',
  xPermittedCrossDomainPolicies: 'none',
  permissionsPolicy: PERMISSIONS_POLICY,
  crossOriginEmbedderPolicy: false,
  xDownloadOptions: false,
  xXssProtection: false,
  removePoweredBy: false,
  overwrite: false,
} as const;

// The build imports this file alone, so it imports nothing.

/** A copy of a response made outside the context, with the headers added (and the request's id, when it has one). */
export function withSecurityHeaders(res: Response, requestId?: string): Response {
  const copy = new Response(res.body, res);
  for (const [name, value] of SECURITY_HEADERS) copy.headers.set(name, value);
  if (requestId) copy.headers.set('X-Request-Id', requestId);
  return copy;
}
