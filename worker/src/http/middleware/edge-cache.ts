import type { MiddlewareHandler } from 'hono';
import type { DatabaseSessions, EdgeCache } from '../../ports/edge-cache.js';
import type { Defer } from '../../ports/runtime.js';
import { deferFor } from '../defer.js';
import type { AppEnv } from '../env.js';
import { PUBLIC_READ_HEADERS } from './answer-headers.js';
import { noneMatch } from './public-read.js';
import { cachedAnswerer, keyOf } from './public-read-cache.js';

/** The header that carries a D1 bookmark: answered to every request with credentials, sent back by the admin. */
export const BOOKMARK_HEADER = 'X-D1-Bookmark';

/** D1's bookmarks are hex groups joined by dashes; anything else a client sends is ignored. */
const isBookmark = (value: string | null): value is string =>
  value !== null && value.length <= 200 && /^[0-9a-f]+(-[0-9a-f]+)*$/i.test(value);

export interface EdgeDeps {
  edgeCache?: EdgeCache;
  dbSessions?: DatabaseSessions;
  cacheControl: string;
  defer: Defer;
}

/** Uploaded images and variants: kept at the edge only when a delete purges them everywhere. */
const FILES = '/static/uploadedImages/';
/** What a kept image's answer carries besides its own stored headers: the route's, as for any public file. */
const FILE_HEADERS = { ...PUBLIC_READ_HEADERS, 'Cache-Control': 'public, no-cache' };

/** A kept image as the image route answers it: browsers still revalidate, and a 304 needs no storage at all. */
function fileAnswer(hit: Response, req: Request, requestId: string): Response {
  const etag = hit.headers.get('etag') ?? '';
  const headers: Record<string, string> = { ...FILE_HEADERS, 'X-Request-Id': requestId, ETag: etag };
  if (noneMatch(req.headers.get('if-none-match'), etag)) {
    void hit.body?.cancel();
    return new Response(null, { status: 304, headers });
  }
  for (const name of ['content-type', 'content-length', 'content-disposition']) {
    const value = hit.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return new Response(hit.body, { status: 200, headers });
}

/**
 * Workers: the edge cache's one entry point (docs/caching.md), and every
 * request in a D1 session. It runs after the request log and CORS, which
 * give a hit its id, its access line and its CORS headers. An anonymous GET is answered from this
 * data centre's cache when it can be; a miss reads in a session that may use
 * a read replica, but no older than the last write seen here, and its
 * answer is stored after the response. Any other request continues from
 * the bookmark its client sends (read-your-writes for the admin) or starts
 * at the primary, and is told the bookmark it reached. A successful write
 * makes the next read here miss and purges the other data centres.
 */
export function edgeCaching(deps: EdgeDeps): MiddlewareHandler<AppEnv> {
  const answer = cachedAnswerer(deps.cacheControl);
  const { edgeCache, dbSessions } = deps;
  return async (c, next) => {
    const req = c.req.raw;
    const method = req.method;
    const read = method === 'GET' || method === 'HEAD';
    const anonymous = !req.headers.has('authorization');
    let generation: string | undefined;
    let start: string;
    const file = edgeCache?.keepsFiles === true && c.req.path.startsWith(FILES);
    if (read && anonymous) {
      start = 'first-unconstrained';
      if (edgeCache) {
        const key = keyOf(req.url);
        const found = file ? await edgeCache.lookupFile(key) : await edgeCache.lookup(key);
        if (found.hit instanceof Response) return fileAnswer(found.hit, req, c.get('requestId'));
        if (found.hit) return answer(found.hit, req, c.get('requestId'));
        generation = found.generation;
        if (found.readAfter) start = found.readAfter;
      }
    } else {
      const sent = req.headers.get(BOOKMARK_HEADER);
      start = isBookmark(sent) ? sent : 'first-primary';
    }
    let bookmark: string | null = null;
    if (dbSessions) bookmark = await dbSessions.run(start, () => next());
    else await next();
    if (!anonymous && bookmark) c.header(BOOKMARK_HEADER, bookmark);
    if (!edgeCache) return;
    const defer = deferFor(c, deps.defer);
    const served = c.get('servedRead');
    if (generation !== undefined && method === 'GET' && c.res.status === 200 && file) {
      defer(edgeCache.storeFile(keyOf(req.url), generation, c.res.clone()));
    } else if (generation !== undefined && method === 'GET' && c.res.status === 200 && served) {
      defer(edgeCache.store(keyOf(req.url), generation, served));
    } else if (!read && method !== 'OPTIONS' && c.res.status < 400) {
      await edgeCache.changed(bookmark);
      defer(edgeCache.purge());
    }
  };
}
