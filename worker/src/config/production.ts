/**
 * Production: every Worker (wrangler.toml sets PUBLIC_URL for `wrangler
 * dev`), and on Node NODE_ENV=production or a server the supervisor runs (an
 * unpacked release, the Docker image).
 */
export function isProduction(
  target: 'workers' | 'node',
  s: { NODE_ENV?: string | undefined; CMS_SUPERVISED?: string | undefined },
) {
  return target === 'workers' || s.NODE_ENV === 'production' || s.CMS_SUPERVISED === '1';
}

export const PUBLIC_URL_REQUIRED =
  'PUBLIC_URL: required in production (every Worker; on Node NODE_ENV=production or a release run by the supervisor). ' +
  'Answers and e-mails link to it, e.g. PUBLIC_URL=https://cms.example.com; without it they would follow each ' +
  "request's Host header, and a shared cache could keep one client's links for everyone (docs/caching.md)";
