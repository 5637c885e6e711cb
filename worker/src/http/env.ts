import type { Actor } from '../auth/actor.js';
import type { CachedAnswer } from '../ports/read-cache.js';
import type { KeepAnswer } from '../ports/repositories.js';
import type { Defer } from '../ports/runtime.js';
import type { ActivityActor, WriteOrigin } from '../ports/write-effects.js';

/**
 * The services, built once, that handlers get as `services` (http/route.ts).
 * Each feature adds what its named builder returns, in its module
 * (`declare module '…/http/env.js' { interface Services extends
 * ReturnType<typeof sitesServices> {} }`), so going to the definition of
 * `services.sites` in a handler lands on the line that builds it; the
 * composition root (app/) checks that the registered features build every one.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, one feature at a time
export interface Services {}

export interface AuditOptions {
  subject?: { type: string; id: string | null } | null;
  details?: Record<string, unknown> | null;
  /** Who did it, when it is not the request's actor (a login: the account that just signed in). */
  actor?: ActivityActor;
}

/** Writes one activity entry for this request, after the response if the runtime allows. */
export type Audit = (action: string, options?: AuditOptions) => void;

/** Hono's typed context for every route. */
export interface AppEnv {
  Variables: {
    actor: Actor;
    /** Records an activity entry for this request (http/activity.ts). */
    audit: Audit;
    /** Work that finishes after the response (http/activity.ts). */
    defer: Defer;
    /** Keeps a create's answer for its Idempotency-Key, in the create's transaction (http/middleware/idempotency.ts). */
    keepAnswer: KeepAnswer;
    /** This request as the origin of a write: its actor, client address and `defer` (http/activity.ts). */
    origin: () => WriteOrigin;
    /** Sent back as X-Request-Id and named in the request's log lines (http/middleware/request-log.ts). */
    requestId: string;
    /** The declared path of the route that took the request (`/v1/articles/{id}`), for its access line (http/route.ts). */
    route: string | undefined;
    /** A public read's answer made with every header it needs (http/middleware/public-read.ts): the security layer leaves it as it is. */
    wholeAnswer: Response | undefined;
    /** A public answer as sent (http/middleware/public-read.ts), for the caches in front; unset otherwise. */
    servedRead: CachedAnswer | undefined;
  };
}
