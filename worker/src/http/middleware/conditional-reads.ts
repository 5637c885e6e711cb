import type { Context, MiddlewareHandler, Next } from 'hono';
import type { ReadGeneration } from '../../ports/repositories.js';
import type { Logger } from '../../ports/runtime.js';
import type { AppEnv } from '../env.js';
import { noneMatch } from './public-read.js';
import { CACHEABLE, cachedAnswerer, readKeyOf } from './public-read-cache.js';

/** What this instance last served for a URL: its ETag and the generation the answer was read at. */
interface Served {
  etag: string;
  generation: string;
}

/** URLs remembered at most (~200 bytes each); the oldest goes first. */
const MAX_URLS = 10_000;

export interface ConditionalReadDeps {
  generation: ReadGeneration;
  cacheControl: string;
  linksFollowRequest: boolean;
  now(): Date;
  logger: Logger;
}

/**
 * Conditional anonymous reads of articles without reading the article
 * (docs/caching.md). Each instance remembers, per URL, the ETag it last
 * served and the database's read generation it read that answer at; an
 * `If-None-Match` naming that ETag is a 304 when the generation is still
 * the same: one primary-key read instead of the row, its authors, tags
 * and images. Every successful write moves the generation after it
 * committed, whichever instance made it, so the first conditional read
 * after it reads the row again. Only conditional reads read the generation
 * (before the handler reads anything, so an answer is never remembered
 * with a generation newer than its rows): unconditional reads cost nothing
 * more. Runs before routing and authentication, as the read cache's hits
 * do (a GET without credentials is the anonymous read), and on Workers
 * inside the edge layer's D1 session; a 304 carries the headers a cached
 * answer does (public-read-cache.ts).
 */
export function conditionalReads(deps: ConditionalReadDeps): MiddlewareHandler<AppEnv> {
  const served = new Map<string, Served>();
  const { generation } = deps;
  const notModified = cachedAnswerer(deps.cacheControl);
  const afterWrite = async (c: Context<AppEnv>, next: Next) => {
    await next();
    if (c.res.status >= 400) return;
    served.clear();
    // The write has committed; a failure here leaves other instances answering 304 until the next write.
    await generation.advance(deps.now()).catch((err) => deps.logger.error('read generation not advanced', err));
  };
  // Not async itself: most requests only pass through, and an async step costs them a promise of its own.
  return (c, next) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') return afterWrite(c, next);
    const req = c.req.raw;
    const ifNoneMatch = req.headers.get('if-none-match');
    if (method !== 'GET' || !ifNoneMatch || req.headers.has('authorization') || !CACHEABLE.test(c.req.path))
      return next();
    const key = readKeyOf(req, deps.linksFollowRequest);
    if (!key) return next();
    return conditional(c, next, key, ifNoneMatch);
  };

  async function conditional(c: Context<AppEnv>, next: Next, key: string, ifNoneMatch: string) {
    const req = c.req.raw;
    const now = await generation.current();
    const known = served.get(key);
    if (known && known.generation === now && noneMatch(ifNoneMatch, known.etag))
      return notModified({ etag: known.etag, body: '', contentType: '' }, req, c.get('requestId'));
    await next();
    const answer = c.get('servedRead');
    if (!answer || (c.res.status !== 200 && c.res.status !== 304)) return;
    served.delete(key);
    if (served.size >= MAX_URLS) served.delete(served.keys().next().value!);
    served.set(key, { etag: answer.etag, generation: now });
  }
}
