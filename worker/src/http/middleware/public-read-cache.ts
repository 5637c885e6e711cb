import type { MiddlewareHandler } from 'hono';
import type { EdgeHit } from '../../ports/edge-cache.js';
import type { CachedAnswer, KeptAnswer, ReadCache } from '../../ports/read-cache.js';
import type { AppEnv } from '../env.js';
import { withoutCampaignTags } from '../query-policy.js';
import { PUBLIC_READ_HEADERS } from './answer-headers.js';
import { noneMatch } from './public-read.js';
import type { hitLog } from './request-log.js';

/**
 * Anonymous reads of articles (the list, one by id or by slug, its images),
 * answered from the read cache while nothing changed. The key is the whole
 * URL, so every parameter that changes an answer (filters, `page`,
 * `fields`, `include`) keys its own entry.
 */
export const CACHEABLE = /^\/v1\/articles(\/slug\/[^/]+|\/[^/]+(\/images)?)?$/;

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

export interface ReadCacheDeps {
  cache: ReadCache;
  cacheControl: string;
  linksFollowRequest: boolean;
  /** A hit's id and access line (request-log.ts): a hit never reaches the request log. */
  log: ReturnType<typeof hitLog>;
  /** CORS's layer (cors.ts), run around a hit that has an Origin: a hit never reaches it either. */
  cors: MiddlewareHandler<AppEnv>;
}

/**
 * Node with SQLite: the read cache's one entry point, the app's first
 * middleware (docs/caching.md). A GET without credentials is exactly the
 * anonymous read that was stored: a hit is answered here, before the
 * request log, routing, authentication and the route's own layers, with
 * the headers that answer carried, its ETag and the public Cache-Control (a
 * matching If-None-Match is a 304), its own id and access line, and CORS's
 * headers when it has an Origin. A miss of an anonymous article read goes
 * on into the app and is stored once the route answered it (the route's
 * own answer as sent, public-read.ts); any successful write empties the
 * cache.
 */
export function readCache(deps: ReadCacheDeps): MiddlewareHandler<AppEnv> {
  const { cache, linksFollowRequest, log, cors } = deps;
  const answer = cachedAnswerer(deps.cacheControl);
  return async (c, next) => {
    const req = c.req.raw;
    const method = req.method;
    if (method !== 'GET') {
      await next();
      if (method !== 'HEAD' && method !== 'OPTIONS' && c.res.status < 400) cache.invalidate();
      return;
    }
    // Credentials make another caller (the list holds drafts for some); a bad token is the route's 401.
    if (req.headers.has('authorization') || !CACHEABLE.test(c.req.path)) return next();
    const key = readKeyOf(req, linksFollowRequest);
    if (!key) return next();
    const hit = cache.get(key);
    if (hit) {
      const started = performance.now();
      const requestId = log.idFor(c);
      let res = answer(hit, req, requestId);
      if (req.headers.has('origin')) {
        const ready = res;
        await cors(c, async () => {
          c.res = ready;
        });
        res = c.res;
      }
      log.line(req, res.status, requestId, started);
      return res;
    }
    await next();
    // A 304 leaves nothing to keep.
    const served = c.get('servedRead');
    if (c.res.status === 200 && served) cache.set(key, served);
  };
}

/** The path of a request's URL, without building a URL object. */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const query = url.indexOf('?', start);
  return url.slice(start, query < 0 ? undefined : query);
}

/**
 * Node's listener, before the app: a hit without an Origin (no CORS
 * headers to add) answered at once, as `readCache` would answer it, or
 * undefined to hand the request to the app. Outside Hono a hit is a plain
 * function call: through the app's first middleware (an async step and a
 * context per request) a cached read cost 51 µs of CPU against 33 here
 * (same machine and run, 10 connections), and the cached read is one of
 * the bench's goal rows (docs/benchmarks.md). Everything else about the
 * read cache (hits with an Origin, storing, emptying) is `readCache`.
 */
export function listenerHits(deps: Omit<ReadCacheDeps, 'cors'>): (req: Request, env: unknown) => Response | undefined {
  const { cache, linksFollowRequest, log } = deps;
  const answer = cachedAnswerer(deps.cacheControl);
  return (req, env) => {
    if (req.method !== 'GET') return undefined;
    const headers = req.headers;
    if (headers.has('authorization') || headers.has('origin') || !CACHEABLE.test(pathOf(req.url))) return undefined;
    const key = readKeyOf(req, linksFollowRequest);
    const hit = key === undefined ? undefined : cache.get(key);
    if (!hit) return undefined;
    const started = performance.now();
    const requestId = log.idOf(req, env);
    const res = answer(hit, req, requestId);
    log.line(req, res.status, requestId, started);
    return res;
  };
}

/**
 * A kept answer: its body as a string, as UTF-8 bytes (the read cache,
 * ports/read-cache.ts) or as a stream (the edge cache, ports/edge-cache.ts).
 */
type AnyKept = CachedAnswer | KeptAnswer | EdgeHit;

/** A kept anonymous answer as the route answered it: 200, or 304 for a matching If-None-Match. */
export function cachedAnswerer(cacheControl: string): (hit: AnyKept, req: Request, requestId: string) => Response {
  const common = { ...PUBLIC_READ_HEADERS, 'Cache-Control': cacheControl };
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
