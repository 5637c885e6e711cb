import { type Context, Hono } from 'hono';
import type { Settings } from '../config/settings.js';
import type { DatabaseSessions, EdgeCache } from '../ports/edge-cache.js';
import type { ReadCache } from '../ports/read-cache.js';
import type { Repositories } from '../ports/repositories.js';
import type { AssetServer, Clock, ContentDigest, Logger, RequestScope } from '../ports/runtime.js';
import { requestLinks } from '../wire/links.js';
import { type ActivityRecorderDeps, activityRecorder } from './activity.js';
import { forwardedProto } from './client-address.js';
import type { AppEnv, Services } from './env.js';
import { securityHeaders } from './middleware/answer-headers.js';
import { authentication, type Credentials } from './middleware/auth.js';
import { jsonBodyLimits } from './middleware/body-limit.js';
import { conditionalReads, listenerConditionals } from './middleware/conditional-reads.js';
import { type CorsPolicy, cors } from './middleware/cors.js';
import { edgeCaching } from './middleware/edge-cache.js';
import { onError } from './middleware/errors.js';
import { type IdempotencyDeps, idempotency } from './middleware/idempotency.js';
import { publicCacheControl } from './middleware/public-read.js';
import { listenerHits, readCache } from './middleware/public-read-cache.js';
import { type RateLimitDeps, rateLimiting } from './middleware/rate-limit.js';
import { hitLog, type RequestLogDeps, requestLog } from './middleware/request-log.js';
import { withSecurityHeaders } from './middleware/security-headers.js';
import { unmatchedAnswer } from './middleware/unmatched.js';
import { mountRoutes, type RouteDef } from './route.js';

/** What the HTTP layer itself needs, beside the routes and the services they call. */
export interface HttpDeps
  extends Omit<ActivityRecorderDeps, 'settings'>,
    Omit<IdempotencyDeps, 'logger'>,
    Omit<RateLimitDeps, 'settings' | 'logger' | 'peerAddress'> {
  settings: ActivityRecorderDeps['settings'] &
    RateLimitDeps['settings'] &
    Pick<
      Settings,
      'maxJsonBytes' | 'maxArticleBytes' | 'publicCache' | 'imageVariantWidths' | 'publicUrl' | 'publicUrlConfigured'
    >;
  logger: Logger;
  clock: Clock;
  /** The read generation: conditional reads answered without the row (conditional-reads.ts). */
  repos: Pick<Repositories, 'readGeneration' | 'idempotencyKeys'>;
  /** Carries the request's id into every log line written for it. */
  requestScope: RequestScope;
  /** Names an answer's bytes: the ETag of public reads. */
  digest: ContentDigest;
  assets: AssetServer;
  /** Set where one process owns all writes (Node with SQLite): anonymous article reads are served from memory. */
  publicReadCache?: ReadCache;
  /** Which other origins' pages may call the API. */
  cors: CorsPolicy;
  /** Who a bearer token names. */
  credentials: Credentials;
  /** Workers: public reads kept in each data centre (the Cache API). */
  edgeCache?: EdgeCache;
  /** Workers: each request in a D1 session (read replicas, bookmarks). */
  dbSessions?: DatabaseSessions;
  /** A storage error meaning "not there now" that escaped its adapter: answered 503, not 500. */
  isUnavailable?: (err: unknown) => boolean;
}

const API = '/v1';

/**
 * The one Hono app both targets serve; only the deps differ. `/v1` routes
 * run after the activity recorder and authentication; the others (health,
 * uploaded images) are public and run without them.
 */
export function createHttpApp(deps: HttpDeps, routes: readonly RouteDef[], services: Services) {
  const limits = rateLimiting(deps);
  const cache = deps.publicReadCache;
  const caching = { cacheControl: publicCacheControl(deps.settings.publicCache), digest: deps.digest };
  const bodyLimits = jsonBodyLimits({ json: deps.settings.maxJsonBytes, article: deps.settings.maxArticleBytes });
  const recordActivity = activityRecorder(deps);
  const authenticate = authentication(deps.credentials);
  // One layer for the steps every /v1 request takes in turn (body limit,
  // activity, caller): each of Hono's layers is an async step of its own,
  // dearer still under the log scope's AsyncLocalStorage (docs/benchmarks.md).
  const api = new Hono<AppEnv>().use((c, next) =>
    bodyLimits(c, () => recordActivity(c, () => authenticate(c, next) as Promise<void>) as Promise<void>),
  );
  const linksFollowRequest = !deps.settings.publicUrlConfigured;
  // A request no route takes: 405 with Allow on a known path, else 404.
  const unmatched = unmatchedAnswer(routes);
  const links = requestLinks(deps.settings);
  const mount = {
    services,
    limits,
    fallbackDefer: deps.defer,
    caching,
    linkBase: (c: Context<AppEnv>) =>
      links(
        c.req.url,
        deps.settings.publicUrlConfigured
          ? undefined
          : forwardedProto(deps.peerAddress(c.req.raw, c.env), c.req.raw.headers, deps.settings.trustProxy),
      ),
    idempotency: idempotency(deps),
  };
  mountRoutes(
    api,
    routes.filter((r) => r.path.startsWith(`${API}/`)),
    API,
    mount,
  );
  api.all('*', unmatched);

  const app = new Hono<AppEnv>({ strict: true });
  const corsLayer = cors(deps.cors);
  // The cache's one entry point. Node with SQLite: the read cache, first of
  // all, so that a hit needs no other layer (it gives itself its id, access
  // line and CORS headers with the functions of the two layers below).
  if (cache) {
    const log = hitLog(deps);
    app.use(readCache({ cache, cacheControl: caching.cacheControl, linksFollowRequest, log, cors: corsLayer }));
  }
  // The request's id and its access line, for every other answer.
  app.use(requestLog(deps));
  // Then preflights, and CORS headers on every answer, cached ones included.
  app.use(corsLayer);
  // Workers: the edge cache (with each request's D1 session), after those two
  // layers, whose functions a hit there does not call itself.
  if (deps.edgeCache || deps.dbSessions) {
    const { edgeCache, dbSessions, defer } = deps;
    app.use(edgeCaching({ edgeCache, dbSessions, defer, cacheControl: caching.cacheControl }));
  }
  // Part of the cache's entry point on every target (and all of it on Node
  // with MySQL or PostgreSQL): a 304 from the read generation, without
  // reading the article (docs/caching.md).
  app.use(
    conditionalReads({
      generation: deps.repos.readGeneration,
      cacheControl: caching.cacheControl,
      linksFollowRequest,
      now: () => deps.clock.now(),
      logger: deps.logger,
    }),
  );
  app.use(securityHeaders());
  app.onError(onError(deps.logger, deps.isUnavailable));
  const outside = routes.filter((r) => !r.path.startsWith(`${API}/`));
  const guarded = outside.find((r) => r.allow !== 'public');
  if (guarded) throw new Error(`${guarded.path}: only /v1 routes know the caller, so only they can need a permission`);
  mountRoutes(app, outside, '', mount);
  app.route(API, api);
  app.all('/static/*', unmatched);
  // Everything else is the admin SPA: static files get the same headers.
  app.on(['GET', 'HEAD'], '*', async (c) =>
    withSecurityHeaders(await deps.assets.fetch(c.req.raw), c.get('requestId')),
  );
  app.notFound(unmatched);
  return app;
}

export type HttpApp = ReturnType<typeof createHttpApp>;

/**
 * What Node's listener answers before the app: with SQLite's read cache, its
 * hits (public-read-cache.ts); without one (MySQL, PostgreSQL, or the cache
 * off), the conditional reads' 304s (conditional-reads.ts). Undefined, or a
 * promise of undefined, hands the request to the app.
 */
export function nodeListenerAnswers(
  deps: Pick<HttpDeps, 'publicReadCache' | 'settings' | 'repos'> & RequestLogDeps,
): (req: Request, env: unknown) => Response | Promise<Response | undefined> | undefined {
  const common = {
    cacheControl: publicCacheControl(deps.settings.publicCache),
    linksFollowRequest: !deps.settings.publicUrlConfigured,
    log: hitLog(deps),
  };
  const cache = deps.publicReadCache;
  if (cache) return listenerHits({ ...common, cache });
  return listenerConditionals({ ...common, generation: deps.repos.readGeneration });
}
