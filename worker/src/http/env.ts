import type { Actor } from '../core/accounts/actor.js';
import type { Services } from './services.js';

/** Hono's typed context for every route. */
export interface AppEnv {
  Variables: {
    actor: Actor;
    services: Services;
  };
}
