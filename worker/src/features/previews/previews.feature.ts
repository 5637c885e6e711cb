import { defineFeature } from '../../feature-api/feature.js';
import { createPreviewTokensRepository } from './previews.repository.js';
import { previewsRoutes } from './previews.routes.js';
import { createPreviewsService, type PreviewsService } from './previews.service.js';

declare module '../../http/env.js' {
  interface Services {
    previews: PreviewsService;
  }
}

/** Preview links of articles, and the clean-up of expired ones. */
export const previewsFeature = defineFeature({
  repositories: (kit) => ({ previewTokens: createPreviewTokensRepository(kit) }),
  services: (deps) => ({
    previews: createPreviewsService({
      ...deps,
      publicUrl: deps.settings.publicUrl,
      readArticle: (id, links) => deps.services.articles.read(id, links),
      pageOf: (article, links) => deps.services.articleDrafts.preview(article, links),
    }),
  }),
  routes: previewsRoutes,
  jobs: (services) => [{ name: 'previews', run: (now) => services.previews.prune(now) }],
});
