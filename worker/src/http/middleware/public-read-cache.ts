import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';

/**
 * Anonymous reads of articles, answered from memory while nothing changed.
 * Only for a single instance over its own database (Node with SQLite), where
 * every write passes through this process: any successful write request
 * empties the cache, so a change is visible on the very next read. Internal
 * writers (scheduled jobs) call `invalidate()` too.
 */
const CACHEABLE = /^\/v1\/articles(\/[^/]+(\/images)?)?$/;

interface Entry {
  body: string;
  contentType: string;
}

export function createPublicReadCache(options: { maxEntries?: number; maxBytes?: number } = {}) {
  const maxEntries = options.maxEntries ?? 1000;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  const entries = new Map<string, Entry>();
  let bytes = 0;

  const invalidate = () => {
    entries.clear();
    bytes = 0;
  };

  function store(key: string, entry: Entry) {
    if (entry.body.length > maxBytes / 8) return;
    while (entries.size >= maxEntries || bytes + entry.body.length > maxBytes) {
      const oldest = entries.keys().next();
      if (oldest.done) break;
      bytes -= entries.get(oldest.value)!.body.length;
      entries.delete(oldest.value);
    }
    entries.set(key, entry);
    bytes += entry.body.length;
  }

  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
      await next();
      if (c.res.status < 400) invalidate();
      return;
    }
    if (method !== 'GET' || c.var.actor.type !== 'anonymous' || !CACHEABLE.test(c.req.path)) return next();
    // Path and query as sent: the same URL, the same answer.
    const url = c.req.url;
    const key = url.slice(url.indexOf('/', url.indexOf('//') + 2));
    const hit = entries.get(key);
    if (hit) {
      // Refresh its place: the least recently used goes first.
      entries.delete(key);
      entries.set(key, hit);
      return c.body(hit.body, 200, { 'Content-Type': hit.contentType });
    }
    await next();
    if (c.res.status === 200) {
      store(key, { body: await c.res.clone().text(), contentType: c.res.headers.get('content-type') ?? 'application/json' });
    }
  };

  return { middleware, invalidate, size: () => entries.size };
}

export type PublicReadCache = ReturnType<typeof createPublicReadCache>;
