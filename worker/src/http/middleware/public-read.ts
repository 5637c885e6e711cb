import type { Context, MiddlewareHandler } from 'hono';
import { decide, type Permission } from '../../auth/policy.js';
import type { ContentDigest } from '../../ports/runtime.js';
import type { AppEnv } from '../env.js';
import { PUBLIC_READ_HEADERS } from './answer-headers.js';
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
 *
 * An anonymous read without an `Origin` whose handler set no header of its
 * own is answered whole: one plain record with every header the layers
 * around would add (PUBLIC_READ_HEADERS and the request's id), which the
 * security layer then leaves as it is (`wholeAnswer`). Through the context
 * the answer took about thirty calls of undici's validating Headers (the
 * layers' three, Hono's, the security layer's has-then-set of each, the
 * listener reading them back); made whole, three. An uncached article read
 * took 15% less CPU in process and 10% less through HTTP, against the build
 * before (docs/benchmarks.md). Any other read goes through the context.
 */
function validatedAnswers(c: Context<AppEnv>, shared: boolean, cacheControl: string, digest: ContentDigest) {
  const ifNoneMatch = c.req.header('if-none-match');
  const { body, json, header } = c;
  // A validator the handler set itself (the article's version for editors) wins over the digest.
  let own: string | undefined;
  // The headers the layers before the route prepared are known only for this request: see above.
  let whole = shared && c.req.header('authorization') === undefined && c.req.header('origin') === undefined;

  const answer = (text: string | null, status: 200 | 304, headers: Record<string, string>) => {
    const res = new Response(text, {
      status,
      headers: { ...PUBLIC_READ_HEADERS, 'X-Request-Id': c.get('requestId'), ...headers },
    });
    c.set('wholeAnswer', res);
    return res;
  };

  const serve = (text: string, contentType: string, headers: HeaderRecord | undefined) => {
    const { rest: noCacheControl } = without(headers, 'cache-control');
    const { rest, value: given } = without(noCacheControl, 'etag');
    const etag = given ?? own ?? `"${digest(text)}"`;
    if (shared) c.set('servedRead', { body: text, etag, contentType });
    const notModified = noneMatch(ifNoneMatch, etag);
    // Headers the handler passed (none on today's public reads) would have to be merged by name: left to Hono.
    const plain = whole && Object.keys(rest).length === 0;
    if (notModified) {
      const validators = { ETag: etag, 'Cache-Control': cacheControl };
      return plain ? answer(null, 304, validators) : body(null, 304, validators);
    }
    if (plain) return answer(text, 200, { 'Content-Type': contentType, ETag: etag, 'Cache-Control': cacheControl });
    return body(text, 200, { 'Content-Type': contentType, ...rest, ETag: etag, 'Cache-Control': cacheControl });
  };

  return {
    header: ((name: string, value?: string, options?: { append?: boolean }) => {
      if (name.toLowerCase() === 'etag') own = value;
      else whole = false;
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
