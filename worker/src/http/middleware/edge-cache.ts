import type { MiddlewareHandler } from 'hono';
import type { DatabaseSessions, EdgeCache } from '../../ports/edge-cache.js';
import type { Defer } from '../../ports/runtime.js';
import { deferFor } from '../defer.js';
import type { AppEnv } from '../env.js';
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

/**
 * Workers only (docs/caching.md): public reads through the edge cache, and
 * every request in a D1 session. An anonymous GET is answered from this
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
    if (read && anonymous) {
      start = 'first-unconstrained';
      if (edgeCache) {
        const found = await edgeCache.lookup(keyOf(req.url));
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
    if (generation !== undefined && method === 'GET' && c.res.status === 200 && served) {
      defer(edgeCache.store(keyOf(req.url), generation, served));
    } else if (!read && method !== 'OPTIONS' && c.res.status < 400) {
      await edgeCache.changed(bookmark);
      defer(edgeCache.purge());
    }
  };
}
