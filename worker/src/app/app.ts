import { createHttpApp } from '../http/app.js';
import type { AppDeps } from './deps.js';
import { buildServices, ROUTES } from './services.js';

/** The one app both targets serve: every feature's routes over services built once from the deps. */
export function createApp(deps: AppDeps) {
  return createHttpApp(deps, ROUTES, buildServices(deps));
}

export type App = ReturnType<typeof createApp>;
