import { defineFeature } from '../../feature-api/feature.js';
import { createSiteOrigins, type SiteOrigins } from './site-origins.js';
import { createSitesRepository } from './sites.repository.js';
import { sitesRoutes } from './sites.routes.js';
import { createSitesService, type SitesService } from './sites.service.js';

declare module '../../http/env.js' {
  interface Services {
    sites: SitesService;
    /** The origins allowed to call the API from a browser: CORS_ORIGINS and the sites' own. */
    siteOrigins: SiteOrigins;
  }
}

/** The sites articles are published to. */
export const sitesFeature = defineFeature({
  repositories: (kit) => ({ sites: createSitesRepository(kit) }),
  services: (deps) => {
    const siteOrigins = createSiteOrigins({ ...deps, configured: deps.settings.corsOrigins });
    return { sites: createSitesService({ ...deps, changed: siteOrigins.forget }), siteOrigins };
  },
  routes: sitesRoutes,
});
