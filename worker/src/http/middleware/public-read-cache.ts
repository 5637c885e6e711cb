import type { MiddlewareHandler } from 'hono';
import type { ReadCache } from '../../ports/read-cache.js';
import type { AppEnv } from '../env.js';
import { SECURITY_HEADERS } from './security-headers.js';

/** Anonymous reads of articles, answered from the read cache while nothing changed. */
const CACHEABLE = /^\/v1\/articles(\/[^/]+(\/images)?)?$/;

/**
 * A hit's headers as a plain record: @hono/node-server writes such a
 * response without building a Headers object (undici's validating Headers
 * was ~9% of a cached read's CPU).
 */
const HIT_HEADERS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(SECURITY_HEADERS),
  // Anonymous public reads, as the route itself answers them (shareablePublicRead, and cors()'s Vary).
  'Cross-Origin-Resource-Policy': 'cross-origin',
  Vary: 'Origin',
};

/** Path and query as sent: the same URL, the same answer. */
const keyOf = (url: string) => url.slice(url.indexOf('/', url.indexOf('//') + 2));

/**
 * Stores anonymous answers, and empties the cache after any successful
 * write. Runs after authentication, in /v1.
 */
export function storeReads(cache: ReadCache): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
      await next();
      if (c.res.status < 400) cache.invalidate();
      return;
    }
    if (method !== 'GET' || c.get('actor').type !== 'anonymous' || !CACHEABLE.test(c.req.path)) return next();
    await next();
    if (c.res.status === 200) {
      cache.set(keyOf(c.req.url), {
        body: await c.res.clone().text(),
        contentType: c.res.headers.get('content-type') ?? 'application/json',
      });
    }
  };
}

/**
 * Answers a hit before anything else runs (routing, the security-header
 * middleware, authentication): a GET without credentials is exactly the
 * anonymous read `storeReads` stored, and the answer carries the same
 * headers every response gets.
 */
export function serveCachedReads(cache: ReadCache): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const req = c.req.raw;
    if (req.method !== 'GET' || cache.size() === 0 || req.headers.has('authorization')) return next();
    const hit = cache.get(keyOf(req.url));
    if (!hit) return next();
    return new Response(hit.body, {
      status: 200,
      headers: { ...HIT_HEADERS, 'Content-Type': hit.contentType, 'X-Request-Id': c.get('requestId') },
    });
  };
}
