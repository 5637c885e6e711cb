import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import { SECURITY_HEADERS } from './security-headers.js';

/**
 * Anonymous reads of articles, answered from memory while nothing changed.
 * Only for a single instance over its own database (Node with SQLite), where
 * every write passes through this process: any successful write request
 * empties the cache, so a change is visible on the very next read. Internal
 * writers (scheduled jobs) call `invalidate()` too.
 */
const CACHEABLE = /^\/v1\/articles(\/[^/]+(\/images)?)?$/;

/**
 * A hit's headers as a plain record: @hono/node-server writes such a
 * response without building a Headers object (undici's validating Headers
 * was ~9% of a cached read's CPU).
 */
const HIT_HEADERS: Readonly<Record<string, string>> = Object.fromEntries(SECURITY_HEADERS);

/** Path and query as sent: the same URL, the same answer. */
const keyOf = (url: string) => url.slice(url.indexOf('/', url.indexOf('//') + 2));

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

  /**
   * Stores anonymous answers, and empties the cache after any successful
   * write. Runs after authentication, in /v1.
   */
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
      await next();
      if (c.res.status < 400) invalidate();
      return;
    }
    if (method !== 'GET' || c.get('actor').type !== 'anonymous' || !CACHEABLE.test(c.req.path)) return next();
    await next();
    if (c.res.status === 200) {
      store(keyOf(c.req.url), {
        body: await c.res.clone().text(),
        contentType: c.res.headers.get('content-type') ?? 'application/json',
      });
    }
  };

  /**
   * Answers a hit before anything else runs (routing, the security-header
   * middleware, authentication): a GET without credentials is exactly the
   * anonymous read `middleware` stored, and the answer carries the same
   * headers every response gets.
   */
  const serveHit: MiddlewareHandler = async (c, next) => {
    const req = c.req.raw;
    if (req.method !== 'GET' || entries.size === 0 || req.headers.has('authorization')) return next();
    const key = keyOf(req.url);
    const hit = entries.get(key);
    if (!hit) return next();
    // Refresh its place: the least recently used goes first.
    entries.delete(key);
    entries.set(key, hit);
    return new Response(hit.body, { status: 200, headers: { ...HIT_HEADERS, 'Content-Type': hit.contentType } });
  };

  return { middleware, serveHit, invalidate, size: () => entries.size };
}

export type PublicReadCache = ReturnType<typeof createPublicReadCache>;
