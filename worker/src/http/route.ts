import type { Context, Hono, MiddlewareHandler, TypedResponse } from 'hono';
import type { StatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import type * as z from 'zod';
import type { Permission } from '../auth/policy.js';
import { DomainError, notFound } from '../core/domain/errors.js';
import type { Defer } from '../ports/runtime.js';
import type { LinkBase } from '../wire/links.js';
import { deferFor } from './defer.js';
import type { AppEnv, Services } from './env.js';
import { shareablePublicRead } from './middleware/answer-headers.js';
import { allow } from './middleware/auth.js';
import { layers } from './middleware/layers.js';
import { type CachePolicy, type PublicCaching, publicRead } from './middleware/public-read.js';
import type { RateBudget, rateLimiting } from './middleware/rate-limit.js';
import { isCampaignTag } from './query-policy.js';
import { validate } from './validate.js';

/**
 * A route, declared once: method, path, permission, request and response
 * schemas, and the handler. The app mounts it (`mountRoutes`) and the OpenAPI
 * document describes it (`http/openapi.ts`) from the same object, so neither
 * can say something the other does not.
 */

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** An answer that is not JSON (XML, a file, a stream): its media types. Nothing validates it. */
export interface RawBody {
  readonly mediaTypes: readonly string[];
  readonly binary: boolean;
}
export const rawBody = (mediaTypes: string | readonly string[], options: { binary?: boolean } = {}): RawBody => ({
  mediaTypes: typeof mediaTypes === 'string' ? [mediaTypes] : mediaTypes,
  binary: options.binary ?? false,
});

/** One status's answer: a zod schema (JSON), a raw body, or null (no body). */
export type Body = z.ZodType | RawBody | null;

/** An answer with a description of when it is given. */
export interface Described<B extends Body = Body> {
  readonly body: B;
  readonly description: string;
}
export const described = <B extends Body>(body: B, description: string): Described<B> => ({ body, description });

export type AnswerSpec = Body | Described;
export type Responses = { readonly [status: number]: AnswerSpec };

/** The body of an answer, described or not. */
export const bodyOf = (spec: AnswerSpec): Body =>
  spec !== null && typeof spec === 'object' && 'description' in spec && 'body' in spec ? spec.body : (spec as Body);

/** Error statuses a route may answer besides those its declaration implies (see `errorStatuses`). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503;

/** Path parameters: each a string schema; a value that fails it names nothing, so it is a 404. */
export type ParamSpecs = Readonly<Record<string, z.ZodType<unknown, string>>>;

type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;
type ParamsOf<P> = { [K in keyof P]: P[K] extends z.ZodType ? z.output<P[K]> : never };

export type RateLimits = ReturnType<typeof rateLimiting>;

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** The services, built once (app/services.ts): handed in, not looked up per request. */
  services: Services;
  /** Work that finishes after the response: waitUntil where the runtime has it, else the process's deferred work. */
  defer: Defer;
  /** The rate limiter, for a handler that spends a budget only once it knows the request is an attempt. */
  limits: RateLimits;
  /** What the answer's URLs are built from. */
  links: LinkBase;
}

type Unwrap<S> = S extends Described<infer B> ? B : S;
type JsonAnswer<R> = {
  [S in keyof R]: Unwrap<R[S]> extends z.ZodType
    ? TypedResponse<JSONParsed<z.output<Unwrap<R[S]>>>, StatusCode, 'json'>
    : never;
}[keyof R];
type BodyAnswer<R> = {
  [S in keyof R]: Unwrap<R[S]> extends z.ZodType ? never : TypedResponse<unknown, StatusCode, 'body'>;
}[keyof R];

/**
 * What a handler may return: `c.json(…)` of a body one of the declared
 * schemas describes, or `c.body(…)` where a raw or empty answer is declared.
 * Checked when compiling; nothing is validated while serving.
 */
export type Answer<R> = Response & (JsonAnswer<R> | BodyAnswer<R>);

export interface RouteConfig<P extends ParamSpecs, Q, B, R extends Responses> {
  method: Method;
  /** The full path, OpenAPI style: `/v1/sites/{id}`. */
  path: string;
  summary: string;
  /** 'public', or the permission of auth/policy.ts the caller needs. */
  allow: 'public' | Permission;
  /** A budget of the rate limiter, taken before anything else runs. */
  rateLimit?: RateBudget | { budget: RateBudget; refundOnSuccess: true };
  params?: P;
  /**
   * The query string, as a z.object of its parameters: any other parameter
   * is refused with 400 before the handler runs (a route without one takes
   * no parameters). Adding a parameter is adding its line to the object.
   */
  query?: Q;
  /** A JSON body. */
  body?: B;
  /** A multipart/form-data body holding one file in this field; the handler reads it. */
  upload?: string;
  /** A raw body of these media types that the handler reads as a stream, bounding it itself (no JSON limit applies). */
  stream?: RawBody;
  /** Middleware that runs after the permission and the rate limit, before validation (made from the services when it calls them). */
  before?: readonly MiddlewareHandler<AppEnv>[] | ((services: Services) => readonly MiddlewareHandler<AppEnv>[]);
  /** A public GET that caches may keep: ETag, 304 and Cache-Control (http/middleware/public-read.ts). */
  cache?: CachePolicy;
  /** A create that honours Idempotency-Key: its handler keeps its answer with `c.var.keepAnswer` (http/middleware/idempotency.ts). */
  idempotent?: true;
  responses: R;
  /**
   * Entity tags, for the document: 'read', its answers carry `ETag`; 'write',
   * they do and the route honours `If-Match` (the handler checks it, and
   * declares its 412 answer).
   */
  etag?: 'read' | 'write';
  /** Error statuses beyond those the declaration implies. */
  errors?: readonly ErrorStatus[];
  handler: (
    c: Context<AppEnv>,
    input: RouteInput<ParamsOf<P>, OutputOf<Q>, OutputOf<B>>,
  ) => Answer<R> | Promise<Answer<R>>;
}

/** A declared route with its types erased: what the app and the document read. */
export interface RouteDef {
  readonly method: Method;
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly allow: 'public' | Permission;
  readonly rateLimit?: RateBudget | { budget: RateBudget; refundOnSuccess: true };
  readonly params?: ParamSpecs;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly upload?: string;
  readonly stream?: RawBody;
  readonly before?:
    | readonly MiddlewareHandler<AppEnv>[]
    | ((services: Services) => readonly MiddlewareHandler<AppEnv>[]);
  readonly cache?: CachePolicy;
  readonly idempotent?: true;
  readonly responses: Responses;
  readonly etag?: 'read' | 'write';
  readonly errors?: readonly ErrorStatus[];
  readonly handler: (c: Context<AppEnv>, input: RouteInput<unknown, unknown, unknown>) => Response | Promise<Response>;
}

/** The route declarer of one feature: every route it makes carries the feature's tag. */
export const routesOf =
  (tag: string) =>
  <
    const R extends Responses,
    P extends ParamSpecs = Record<never, never>,
    Q extends z.ZodType | undefined = undefined,
    B extends z.ZodType | undefined = undefined,
  >(
    config: RouteConfig<P, Q, B, R>,
  ): RouteDef =>
    ({ ...config, tag }) as unknown as RouteDef;

/** The statuses a route answers with the error body, from what it declares. */
export function errorStatuses(r: RouteDef): number[] {
  const statuses = new Set<number>(r.errors);
  // Every route refuses query parameters it does not declare.
  statuses.add(400);
  // Every JSON body has a size limit (MAX_JSON_BYTES, article writes MAX_ARTICLE_BYTES).
  if (r.body) statuses.add(413);
  // Every /v1 request is authenticated first: a token that is not ours is
  // refused on every route, public or not, and checking one needs the
  // database, which may be down.
  if (r.path.startsWith('/v1/')) statuses.add(401).add(503);
  if (r.allow !== 'public') statuses.add(403);
  if (r.params && Object.keys(r.params).length > 0) statuses.add(404);
  // Over budget (the limiter's store being down is the 503 above).
  if (r.rateLimit) statuses.add(429);
  // The key still in use by a request in progress; the key used with another body.
  if (r.idempotent) statuses.add(409).add(422);
  for (const status of Object.keys(r.responses)) statuses.delete(Number(status));
  return [...statuses].sort((a, b) => a - b);
}

const NO_PARAMS = Object.freeze({});

/** The parameter names a query schema declares: the keys of its z.object (refinements keep the shape). */
export function queryNames(r: RouteDef): ReadonlySet<string> {
  if (!r.query) return new Set();
  const shape = (r.query as { shape?: Record<string, unknown> }).shape;
  if (!shape) throw new Error(`${r.method.toUpperCase()} ${r.path}: declare the query as a z.object of its parameters`);
  return new Set(Object.keys(shape));
}

/**
 * Refuses a parameter the route does not declare, naming it: a
 * misspelt or unsupported filter is an error, never silently a wider answer.
 * Campaign tags (`utm_*`) are the exception: links carry them, routes ignore them.
 */
function strictQuery(names: ReadonlySet<string>): MiddlewareHandler<AppEnv> {
  const known = names.size === 0 ? 'this route takes none' : `known: ${[...names].join(', ')}`;
  return (c, next) => {
    const url = c.req.url;
    const start = url.indexOf('?');
    if (start !== -1) {
      for (const name of new URLSearchParams(url.slice(start + 1)).keys()) {
        if (names.has(name) || isCampaignTag(name)) continue;
        const message = `Unknown query parameter ${JSON.stringify(name)} (${known})`;
        throw new DomainError('invalid_request', message, [{ path: name, message }]);
      }
    }
    return next();
  };
}

/** What a handler needs besides the context, fixed when the routes are mounted. */
export interface MountDeps {
  services: Services;
  limits: RateLimits;
  /** Where no activity recorder sets the request's `defer` (outside /v1). */
  fallbackDefer: Defer;
  /** Validators and Cache-Control of the routes that declare `cache`. */
  caching: PublicCaching;
  /** The base of the answer's URLs for this request. */
  linkBase: (c: Context<AppEnv>) => LinkBase;
  /** Idempotency-Key on the routes that declare `idempotent`. */
  idempotency: MiddlewareHandler<AppEnv>;
}

function handlerOf(r: RouteDef, { services, limits, fallbackDefer, linkBase }: MountDeps) {
  const names = Object.keys(r.params ?? {});
  const specs = r.params ?? {};
  return (c: Context<AppEnv>): Response | Promise<Response> => {
    let params: Record<string, unknown> = NO_PARAMS;
    if (names.length > 0) {
      params = {};
      for (const name of names) {
        const parsed = specs[name]!.safeParse(c.req.param(name));
        if (!parsed.success) throw notFound();
        params[name] = parsed.data;
      }
    }
    // Found on first use, as in http/activity.ts: asking for the execution context throws on Node.
    let resolved: Defer | undefined;
    const defer: Defer = (work) => {
      resolved ??= c.get('defer') ?? deferFor(c, fallbackDefer);
      return resolved(work);
    };
    return r.handler(c, {
      params,
      query: r.query ? c.req.valid('query' as never) : undefined,
      body: r.body ? c.req.valid('json' as never) : undefined,
      services,
      defer,
      limits,
      links: linkBase(c),
    });
  };
}

/**
 * Registers the routes in order (the first match answers, so `/v1/user/invite`
 * is listed before `/v1/user/{id}`): permission, rate limit, the route's own
 * middleware, validation of query and body, then the handler, which reads
 * the path parameters (a malformed one is the uniform 404).
 */
export function mountRoutes(app: Hono<AppEnv>, routes: readonly RouteDef[], prefix: string, deps: MountDeps): void {
  for (const r of routes) {
    const chain: MiddlewareHandler<AppEnv>[] = [];
    // Steps that never answer themselves: consecutive ones share a layer (inTurn).
    const passing = new Set<MiddlewareHandler<AppEnv>>();
    const pass = (step: MiddlewareHandler<AppEnv>) => {
      passing.add(step);
      chain.push(step);
    };
    // The access line's route, as declared: Hono's routePath(c) builds an array of every matched handler to find it.
    pass((c, next) => {
      c.set('route', r.path);
      return next();
    });
    if (r.allow === 'public' && r.method === 'get') pass(shareablePublicRead);
    if (r.cache) {
      if (r.allow !== 'public' || r.method !== 'get') throw new Error(`${r.path}: only a public GET may be cached`);
      pass(publicRead(r.cache, deps.caching));
    }
    if (r.allow !== 'public') pass(allow(r.allow));
    if (r.rateLimit) {
      const spec = typeof r.rateLimit === 'string' ? { budget: r.rateLimit } : r.rateLimit;
      chain.push(deps.limits(spec.budget, { refundOnSuccess: 'refundOnSuccess' in spec && spec.refundOnSuccess }));
    }
    chain.push(...(typeof r.before === 'function' ? r.before(deps.services) : (r.before ?? [])));
    if (r.idempotent) chain.push(deps.idempotency);
    pass(strictQuery(queryNames(r)));
    if (r.query) chain.push(validate('query', r.query) as MiddlewareHandler<AppEnv>);
    if (r.body) chain.push(validate('json', r.body) as MiddlewareHandler<AppEnv>);
    const path = r.path.slice(prefix.length).replace(/\{(\w+)\}/g, ':$1');
    app.on([r.method.toUpperCase()], [path], ...layers(chain, passing), handlerOf(r, deps));
  }
}
