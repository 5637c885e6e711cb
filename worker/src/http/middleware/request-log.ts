import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Settings } from '../../config/settings.js';
import type { Logger, RequestScope } from '../../ports/runtime.js';
import { isTrustedProxy } from '../client-address.js';
import type { AppEnv } from '../env.js';
import { jsonWithCharset } from './json-type.js';

export interface RequestLogDeps {
  settings: Pick<Settings, 'trustProxy'>;
  peerAddress(request: Request, env: unknown): string | undefined;
  logger: Logger;
  requestScope: RequestScope;
}

/** The access line's route, `:id` written `{id}` as the API description does; the same few routes every time. */
const routeLabels = new Map<string, string>();
function routeLabel(path: string): string {
  let label = routeLabels.get(path);
  if (label === undefined) {
    label = path.replace(/:(\w+)/g, '{$1}');
    if (routeLabels.size < 1000) routeLabels.set(path, label);
  }
  return label;
}

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** What a proxy's id may look like: enough for UUIDs, trace ids and `host/counter` forms, nothing that can break a line or a header. */
const ACCEPTABLE_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

/** Probes (load balancers, the supervisor) ask every few seconds: their lines are debug, not info. */
const PROBES = new Set(['/healthz', '/readyz']);

export const newRequestId = (): string => crypto.randomUUID();

/** A trusted proxy's usable `X-Request-Id`, else a new UUID. */
function requestIdOf(deps: RequestLogDeps, req: Request, env: unknown): string {
  const offered = req.headers.get(REQUEST_ID_HEADER);
  return offered !== null &&
    ACCEPTABLE_ID.test(offered) &&
    isTrustedProxy(deps.peerAddress(req, env), deps.settings.trustProxy)
    ? offered
    : newRequestId();
}

/**
 * For a cache hit answered in front of the request log (the read cache,
 * Node's first middleware): its id, as `requestLog` gives it, and its one
 * access line (route `/*`, as any answer no route gave), without the log
 * scope and the layers behind it, which a hit does not need (the bench's
 * cached read was 84 µs of CPU behind them, 77 µs in front, one run each on
 * a loaded machine; 55 µs when a replaced fetch answered it synchronously).
 */
export function hitLog(deps: RequestLogDeps) {
  return {
    /** The request's id, before any context exists (the Node listener's hits, public-read-cache.ts). */
    idOf(req: Request, env: unknown): string {
      return requestIdOf(deps, req, env);
    },
    /** The request's id, also set on the context for the layers the hit calls (CORS). */
    idFor(c: Context<AppEnv>): string {
      const requestId = requestIdOf(deps, c.req.raw, c.env);
      c.set('requestId', requestId);
      return requestId;
    },
    line(req: Request, status: number, requestId: string, started: number): void {
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      deps.logger.info('request', { requestId, method: req.method, route: '/*', status, durationMs });
    },
  };
}

/**
 * The outermost layer: gives the request its id (a trusted proxy's
 * `X-Request-Id` when it sent a usable one, else a new UUID), sends it back
 * on the answer, runs the request inside its log context (so every log
 * line written for it, deferred work included, names it), and writes one
 * access line when the answer is ready. The line holds the method, the
 * route as declared (`/v1/articles/{id}`; the catch-all's `/v1/*` or `/*`
 * when no route answered: an unknown path, a preflight, a cache hit,
 * the admin's files), the status and the
 * duration, never the path, query or headers, so no token, code or secret
 * in a URL reaches the log.
 */
export function requestLog(deps: RequestLogDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdOf(deps, c.req.raw, c.env);
    c.set('requestId', requestId);
    jsonWithCharset(c);
    // Prepared before the handler, like the security headers: every answer made through the context carries it.
    c.header(REQUEST_ID_HEADER, requestId);
    await deps.requestScope.run({ requestId }, next);
    const fields = {
      method: c.req.method,
      // Set by the route that answered; a catch-all's (`/v1/*`, `/*`) from Hono.
      route: c.get('route') ?? routeLabel(routePath(c)),
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    // Written outside the scope, so the id is added here.
    if (PROBES.has(c.req.path)) deps.logger.debug('request', { requestId, ...fields });
    else deps.logger.info('request', { requestId, ...fields });
  };
}
