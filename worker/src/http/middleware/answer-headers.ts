import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';

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
