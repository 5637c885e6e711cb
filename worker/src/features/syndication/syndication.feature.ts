import { defineFeature } from '../../feature-api/feature.js';
import { syndicationRoutes } from './syndication.routes.js';
import { createSyndicationService, type SyndicationService } from './syndication.service.js';

declare module '../../http/env.js' {
  interface Services {
    syndication: SyndicationService;
  }
}

/** Sitemaps, RSS feeds and page-head data for the front ends that render our sites. */
export const syndicationFeature = defineFeature({
  services: (deps) => ({ syndication: createSyndicationService({ ...deps, publicUrl: deps.settings.publicUrl }) }),
  routes: syndicationRoutes,
});
