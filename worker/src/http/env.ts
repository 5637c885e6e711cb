import type { Services } from '../app/services.js';
import type { Actor } from '../features/accounts/actor.js';
import type { Defer } from '../ports/runtime.js';
import type { Audit } from './activity.js';

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
