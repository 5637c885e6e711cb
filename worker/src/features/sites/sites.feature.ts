import { defineFeature } from '../../app/feature.js';
import { createSitesRepository } from './sites.repository.js';
import { sitesRoutes } from './sites.routes.js';
import { createSitesService, type SitesService } from './sites.service.js';

declare module '../../http/env.js' {
  interface Services {
    sites: SitesService;
  }
}

/** The sites articles are published to. */
export const sitesFeature = defineFeature({
  repositories: (kit) => ({ sites: createSitesRepository(kit) }),
  services: (deps) => ({ sites: createSitesService(deps) }),
  routes: sitesRoutes,
});
