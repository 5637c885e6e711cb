import type { Context, MiddlewareHandler, Next } from 'hono';
import type { ReadGeneration } from '../../ports/repositories.js';
import type { Logger } from '../../ports/runtime.js';
import type { AppEnv } from '../env.js';
import { noneMatch } from './public-read.js';
import { CACHEABLE, cachedAnswerer, pathOf, readKeyOf } from './public-read-cache.js';
import type { hitLog } from './request-log.js';

/** What this instance last served for a URL: its ETag and the generation the answer was read at. */
interface Served {
  etag: string;
  generation: string;
}

/** URLs remembered at most (~200 bytes each); the oldest goes first. */
const MAX_URLS = 10_000;

/**
 * What an instance remembers, one memory per read generation: the app's
 * layer and Node's listener (`listenerConditionals`) are given the same
 * generation, so they answer from, and learn into, the same memory.
 */
const memories = new WeakMap<ReadGeneration, Map<string, Served>>();
function memoryOf(generation: ReadGeneration): Map<string, Served> {
  let served = memories.get(generation);
  if (!served) {
    served = new Map();
    memories.set(generation, served);
  }
  return served;
}

/** The generation Node's listener read for a request it handed on: the layer does not read it again. */
const readAt = new WeakMap<Request, string>();

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
  const { generation } = deps;
  const served = memoryOf(generation);
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
    const now = readAt.get(req) ?? (await generation.current());
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

/**
 * Node's listener, before the app: a conditional anonymous read without an
 * Origin whose URL this instance remembers, answered 304 as the layer above
 * would (its own id and access line, as a read-cache hit gets them), or
 * undefined to hand the request to the app, with the generation it read. Outside
 * Hono such a 304 needs no context, routing or layer: on PostgreSQL it took
 * 30–34 µs of CPU against 39–40 through the app (docs/benchmarks.md), where
 * the goal is 0.3 of an uncached read. A generation that cannot be read is
 * left to the app, whose layer answers the error as any other.
 */
export function listenerConditionals(
  deps: Pick<ConditionalReadDeps, 'generation' | 'cacheControl' | 'linksFollowRequest'> & {
    log: ReturnType<typeof hitLog>;
  },
): (req: Request, env: unknown) => Promise<Response | undefined> | undefined {
  const { generation, linksFollowRequest, log } = deps;
  const served = memoryOf(generation);
  const notModified = cachedAnswerer(deps.cacheControl);
  const answer = async (req: Request, env: unknown, key: string, ifNoneMatch: string) => {
    const started = performance.now();
    let now: string;
    try {
      now = await generation.current();
    } catch {
      return undefined;
    }
    const known = served.get(key);
    if (!known || known.generation !== now || !noneMatch(ifNoneMatch, known.etag)) {
      readAt.set(req, now);
      return undefined;
    }
    const requestId = log.idOf(req, env);
    const res = notModified({ etag: known.etag, body: '', contentType: '' }, req, requestId);
    log.line(req, res.status, requestId, started);
    return res;
  };
  return (req, env) => {
    if (req.method !== 'GET') return undefined;
    const headers = req.headers;
    const ifNoneMatch = headers.get('if-none-match');
    if (!ifNoneMatch || headers.has('authorization') || headers.has('origin') || !CACHEABLE.test(pathOf(req.url)))
      return undefined;
    const key = readKeyOf(req, linksFollowRequest);
    // Nothing remembered for it: the app reads it (and remembers it) without a generation read here first.
    if (!key || !served.has(key)) return undefined;
    return answer(req, env, key, ifNoneMatch);
  };
}
