import type { Context, MiddlewareHandler } from 'hono';
import { decide, type Permission } from '../../auth/policy.js';
import type { ContentDigest } from '../../ports/runtime.js';
import type { AppEnv } from '../env.js';
import { JSON_TYPE } from './json-type.js';

/**
 * Validators and caching headers of public reads (docs/caching.md).
 *
 * - `'shared'`: every caller gets the same answer (sites, authors, feeds), so
 *   every answer is public.
 * - `{ privateFor }`: callers holding that permission may see more (offline
 *   articles), so their answers are `private, no-store`; every other caller,
 *   signed in or not, gets exactly the public answer, and it is public.
 */
export type CachePolicy = 'shared' | { readonly privateFor: Permission };

export interface PublicCaching {
  /** The `Cache-Control` of a public answer (`publicCacheControl`). */
  readonly cacheControl: string;
  readonly digest: ContentDigest;
}

export const PRIVATE_NO_STORE = 'private, no-store';

/** Browsers revalidate every time (cheap with the ETag); shared caches keep it `seconds`, then serve it stale while they refetch. */
export const publicCacheControl = ({ seconds, staleSeconds }: { seconds: number; staleSeconds: number }) =>
  `public, max-age=0, s-maxage=${seconds}, stale-while-revalidate=${staleSeconds}`;

/**
 * If-None-Match against our (strong) ETag, compared weakly as RFC 9110
 * §13.1.2 asks for GET: a CDN that compresses an answer sends its ETag back
 * as `W/"…"`.
 */
export function noneMatch(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}

type HeaderRecord = Record<string, string | string[]>;

/** A plain 200: the only answer that gets a validator (another status, or a ResponseInit, is left as the handler made it). */
const isPlainOk = (arg: unknown) => arg === undefined || arg === 200;

function without(headers: HeaderRecord | undefined, name: string): { rest: HeaderRecord; value: string | undefined } {
  const rest: HeaderRecord = {};
  let value: string | undefined;
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (k.toLowerCase() === name) value = Array.isArray(v) ? v[0] : v;
    else rest[k] = v;
  }
  return { rest, value };
}

/**
 * The route middleware of a public GET: its JSON (or text) answer gets a
 * strong `ETag` (the digest of the bytes served, or the one the handler set
 * itself with `c.header` or in the answer's headers, e.g. a version) and the `Cache-Control` of its policy, and a
 * matching `If-None-Match` gets a 304. The handler's own `c.json`/`c.body`
 * are wrapped, so the body is serialised once and hashed from that string:
 * nothing is rendered twice, nothing re-reads a response.
 */
export function publicRead(policy: CachePolicy, caching: PublicCaching): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    // c.get, not c.var: Hono builds c.var anew from every variable on each use.
    const actor = c.get('actor');
    const shared = policy === 'shared' || actor === undefined || decide(actor, policy.privateFor) !== 'allow';
    const answers = validatedAnswers(c, shared, shared ? caching.cacheControl : PRIVATE_NO_STORE, caching.digest);
    c.header = answers.header;
    c.json = answers.json;
    c.body = answers.body;
    return next();
  };
}

/**
 * The context's `header`, `json` and `body` as a public read answers with
 * them. Made here and stored by the caller, never in one function: V8 keeps
 * a closure alive through young-generation collections when the function
 * that made it also stores it in an object's property, and the request it
 * reaches is then promoted (json-type.ts, docs/benchmarks.md).
 */
function validatedAnswers(c: Context<AppEnv>, shared: boolean, cacheControl: string, digest: ContentDigest) {
  const ifNoneMatch = c.req.header('if-none-match');
  const { body, json, header } = c;
  // A validator the handler set itself (the article's version for editors) wins over the digest.
  let own: string | undefined;

  const serve = (text: string, contentType: string, headers: HeaderRecord | undefined) => {
    const { rest: noCacheControl } = without(headers, 'cache-control');
    const { rest, value: given } = without(noCacheControl, 'etag');
    const etag = given ?? own ?? `"${digest(text)}"`;
    if (shared) c.set('servedRead', { body: text, etag, contentType });
    const notModified = noneMatch(ifNoneMatch, etag);
    if (notModified) return body(null, 304, { ETag: etag, 'Cache-Control': cacheControl });
    return body(text, 200, { 'Content-Type': contentType, ...rest, ETag: etag, 'Cache-Control': cacheControl });
  };

  return {
    header: ((name: string, value?: string, options?: { append?: boolean }) => {
      if (name.toLowerCase() === 'etag') own = value;
      return header(name, value, options);
    }) as typeof c.header,
    json: ((object: unknown, arg?: unknown, headers?: HeaderRecord) => {
      if (!isPlainOk(arg)) return (json as (...a: unknown[]) => Response)(object, arg, headers);
      const given = without(headers, 'content-type');
      return serve(JSON.stringify(object), given.value ?? JSON_TYPE, given.rest);
    }) as typeof c.json,
    body: ((data: unknown, arg?: unknown, headers?: HeaderRecord) => {
      if (typeof data !== 'string' || !isPlainOk(arg))
        return (body as (...a: unknown[]) => Response)(data, arg, headers);
      const given = without(headers, 'content-type');
      return serve(data, given.value ?? 'text/plain; charset=UTF-8', given.rest);
    }) as typeof c.body,
  };
}
