import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import { createSiteOrigins } from './site-origins.js';
import { createSitesRepository } from './sites.repository.js';
import { sitesRoutes } from './sites.routes.js';
import { createSitesService } from './sites.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const sitesServices = (deps: ServiceDeps) => {
  /** The origins allowed to call the API from a browser: CORS_ORIGINS and the sites' own. */
  const siteOrigins = createSiteOrigins({ ...deps, configured: deps.settings.corsOrigins });
  return { sites: createSitesService({ ...deps, changed: siteOrigins.forget }), siteOrigins };
};

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof sitesServices> {}
}

/** The sites articles are published to. */
export const sitesFeature = defineFeature({
  repositories: (kit) => ({ sites: createSitesRepository(kit) }),
  services: sitesServices,
  routes: sitesRoutes,
});
