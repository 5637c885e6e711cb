import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import { createPreviewTokensRepository } from './previews.repository.js';
import { previewsRoutes } from './previews.routes.js';
import { createPreviewsService } from './previews.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const previewsServices = (deps: ServiceDeps) => {
  // Typed by the service's own deps: this builder's type must not wait on the services it calls (Services is made of it).
  const articlePorts: Pick<Parameters<typeof createPreviewsService>[0], 'readArticle' | 'pageOf'> = {
    readArticle: (id, links) => deps.services.articles.read(id, links),
    pageOf: (article, links) => deps.services.articleDrafts.preview(article, links),
  };
  return { previews: createPreviewsService({ ...deps, publicUrl: deps.settings.publicUrl, ...articlePorts }) };
};

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof previewsServices> {}
}

/** Preview links of articles, and the clean-up of expired ones. */
export const previewsFeature = defineFeature({
  repositories: (kit) => ({ previewTokens: createPreviewTokensRepository(kit) }),
  services: previewsServices,
  routes: previewsRoutes,
  jobs: (services) => [{ name: 'previews', run: (now) => services.previews.prune(now) }],
});
