import type { AppDeps } from '../feature-api/deps.js';
import { createHttpApp } from '../http/app.js';
import { buildServices, ROUTES } from './services.js';

/** The one app both targets serve: every feature's routes over services built once from the deps. */
export function createApp(deps: AppDeps) {
  const services = buildServices(deps);
  const http = {
    ...deps,
    cors: services.siteOrigins,
    recordActivity: services.activity.record,
    credentials: {
      apiKey: services.apiKeys.authenticate,
      touchApiKey: services.apiKeys.touch,
      user: services.accounts.authenticate,
    },
  };
  return createHttpApp(http, ROUTES, services);
}

export type App = ReturnType<typeof createApp>;
