import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import { syndicationRoutes } from './syndication.routes.js';
import { createSyndicationService } from './syndication.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const syndicationServices = (deps: ServiceDeps) => ({
  syndication: createSyndicationService({ ...deps, publicUrl: deps.settings.publicUrl }),
});

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof syndicationServices> {}
}

/** Sitemaps, RSS feeds and page-head data for the front ends that render our sites. */
export const syndicationFeature = defineFeature({
  services: syndicationServices,
  routes: syndicationRoutes,
});
