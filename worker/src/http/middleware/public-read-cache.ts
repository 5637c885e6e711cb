import type { MiddlewareHandler } from 'hono';
import type { EdgeHit } from '../../ports/edge-cache.js';
import type { CachedAnswer, KeptAnswer, ReadCache } from '../../ports/read-cache.js';
import type { AppEnv } from '../env.js';
import { withoutCampaignTags } from '../query-policy.js';
import { noneMatch } from './public-read.js';
import { SECURITY_HEADERS } from './security-headers.js';

/**
 * Anonymous reads of articles (the list, one by id or by slug, its images),
 * answered from the read cache while nothing changed. The key is the whole
 * URL, so every parameter that changes an answer (filters, `page`,
 * `fields`, `include`) keys its own entry.
 */
export const CACHEABLE = /^\/v1\/articles(\/slug\/[^/]+|\/[^/]+(\/images)?)?$/;

/**
 * A hit's headers as a plain record: @hono/node-server writes such a
 * response without building a Headers object (undici's validating Headers
 * was ~9% of a cached read's CPU).
 */
export const HIT_HEADERS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(SECURITY_HEADERS),
  // Anonymous public reads, as the route itself answers them (shareablePublicRead, and cors()'s Vary).
  'Cross-Origin-Resource-Policy': 'cross-origin',
  Vary: 'Origin',
};

/**
 * The host, then path and query as sent, less campaign tags: the same URL,
 * the same answer. The host is part of it because answers link to the origin
 * they were asked at while PUBLIC_URL is unset. A path, so the edge cache can
 * append it.
 */
export const keyOf = (url: string) => {
  const start = url.indexOf('//') + 2;
  return `/${withoutCampaignTags(url.slice(start))}`;
};

/**
 * The read cache's key (keyOf), or none. While PUBLIC_URL is unset
 * (`linksFollowRequest`, development only) links take their scheme from a
 * trusted proxy's X-Forwarded-Proto or Forwarded (wire/links.ts), which
 * the key cannot tell apart from a client's own: such requests are neither
 * stored nor served from the cache.
 */
export function readKeyOf(req: Request, linksFollowRequest: boolean): string | undefined {
  if (linksFollowRequest && (req.headers.has('x-forwarded-proto') || req.headers.has('forwarded'))) return undefined;
  return keyOf(req.url);
}

/**
 * Stores anonymous answers, and empties the cache after any successful
 * write. Runs after authentication, in /v1.
 */
export function storeReads(cache: ReadCache, linksFollowRequest: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
      await next();
      if (c.res.status < 400) cache.invalidate();
      return;
    }
    if (method !== 'GET' || c.get('actor').type !== 'anonymous' || !CACHEABLE.test(c.req.path)) return next();
    await next();
    // The route's own answer as sent (public-read.ts), with its ETag; a 304 leaves nothing to keep.
    const served = c.get('servedRead');
    const key = readKeyOf(c.req.raw, linksFollowRequest);
    if (c.res.status === 200 && served && key) cache.set(key, served);
  };
}

/**
 * Answers a hit before anything else runs (routing, the security-header
 * middleware, authentication): a GET without credentials is exactly the
 * anonymous read `storeReads` stored, and the answer carries the same
 * headers every response gets, its ETag and the public Cache-Control; a
 * matching If-None-Match is a 304.
 */
export function serveCachedReads(
  cache: ReadCache,
  cacheControl: string,
  linksFollowRequest: boolean,
): MiddlewareHandler<AppEnv> {
  const answer = cachedAnswerer(cacheControl);
  return async (c, next) => {
    const req = c.req.raw;
    if (req.method !== 'GET' || cache.size() === 0 || req.headers.has('authorization')) return next();
    const key = readKeyOf(req, linksFollowRequest);
    const hit = key && cache.get(key);
    if (!hit) return next();
    return answer(hit, req, c.get('requestId'));
  };
}

/**
 * The same answer as `serveCachedReads`, before the app runs: no routing,
 * no request log scope, no middleware (docs/benchmarks.md: that layer was
 * most of a hit's cost; request-log.ts `answerEarly` gives the id and the
 * access line). The id is asked for only for a hit. Only for requests without an Origin: CORS headers are
 * added by their middleware, so cross-origin hits take `serveCachedReads`.
 */
export function earlyCachedReads(
  cache: ReadCache,
  cacheControl: string,
  linksFollowRequest: boolean,
): (req: Request, requestId: () => string) => Response | undefined {
  const answer = cachedAnswerer(cacheControl);
  return (req, requestId) => {
    if (req.method !== 'GET' || cache.size() === 0) return undefined;
    const headers = req.headers;
    if (headers.has('authorization') || headers.has('origin')) return undefined;
    const key = readKeyOf(req, linksFollowRequest);
    const hit = key && cache.get(key);
    return hit ? answer(hit, req, requestId()) : undefined;
  };
}

/**
 * A kept answer: its body as a string, as UTF-8 bytes (the read cache,
 * ports/read-cache.ts) or as a stream (the edge cache, ports/edge-cache.ts).
 */
type AnyKept = CachedAnswer | KeptAnswer | EdgeHit;

/** A kept anonymous answer as the route answered it: 200, or 304 for a matching If-None-Match. */
export function cachedAnswerer(cacheControl: string): (hit: AnyKept, req: Request, requestId: string) => Response {
  const common = { ...HIT_HEADERS, 'Cache-Control': cacheControl };
  return (hit, req, requestId) => {
    if (noneMatch(req.headers.get('if-none-match'), hit.etag)) {
      // A stream nobody will read is cancelled; a string or bytes need nothing.
      if (hit.body instanceof ReadableStream) void hit.body.cancel();
      return new Response(null, { status: 304, headers: { ...common, ETag: hit.etag, 'X-Request-Id': requestId } });
    }
    return new Response(hit.body, {
      status: 200,
      headers: { ...common, ETag: hit.etag, 'Content-Type': hit.contentType, 'X-Request-Id': requestId },
    });
  };
}
