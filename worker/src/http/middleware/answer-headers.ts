import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import { SECURITY_HEADERS } from './security-headers.js';

/**
 * Hono's secureHeaders sets its headers on the finished Response, which on
 * Node turns @hono/node-server's cheap response into a full one (even
 * reading `c.res.headers` does) and cost about a third of a cached article
 * read. Here the headers are prepared before the handler runs, so every
 * response made through the context carries them from the start. The one
 * response made elsewhere, a static file from the asset server, goes
 * through `withSecurityHeaders`.
 */
export const securityHeaders = (): MiddlewareHandler<AppEnv> => (c, next) => {
  for (const [name, value] of SECURITY_HEADERS) c.header(name, value);
  return next();
};

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
