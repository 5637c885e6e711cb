import type { Actor } from '../core/accounts/actor.js';
import type { Defer } from '../ports/runtime.js';
import type { Audit } from './activity.js';
import type { Services } from './services.js';

/** Hono's typed context for every route. */
export interface AppEnv {
  Variables: {
    actor: Actor;
    services: Services;
    /** Records an activity entry for this request (http/activity.ts). */
    audit: Audit;
    /** Work that finishes after the response (http/activity.ts). */
    defer: Defer;
  };
}
