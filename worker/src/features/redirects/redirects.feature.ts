import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import { createRedirectsRepository } from './redirects.repository.js';
import { redirectsRoutes } from './redirects.routes.js';
import { createRedirectsService } from './redirects.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const redirectsServices = (deps: ServiceDeps) => ({ redirects: createRedirectsService(deps) });

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof redirectsServices> {}
}

/** Redirects: where the sites' old paths go now, asked for by their frontends. */
export const redirectsFeature = defineFeature({
  repositories: (kit) => ({ redirects: createRedirectsRepository(kit) }),
  // Editors' work, like tags: an installation moved elsewhere keeps its old links working.
  tables: { redirects: { export: true } },
  services: redirectsServices,
  routes: redirectsRoutes,
});
