import type { AppDeps } from '../feature-api/deps.js';
import { createHttpApp } from '../http/app.js';
import { buildServices, ROUTES } from './services.js';

/** The one app both targets serve: every feature's routes over services built once from the deps. */
export function createApp(deps: AppDeps) {
  const services = buildServices(deps);
  return createHttpApp({ ...deps, cors: services.siteOrigins }, ROUTES, services);
}

export type App = ReturnType<typeof createApp>;
