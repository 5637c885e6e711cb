import { defineFeature } from '../../feature-api/feature.js';
import { createArticlesRepository } from './articles.repository.js';
import { articlesRoutes } from './articles.routes.js';
import { type ArticlesService, createArticlesService } from './articles.service.js';

declare module '../../http/env.js' {
  interface Services {
    articles: ArticlesService;
  }
}

/** Articles, their SEO record, and the images they show. */
export const articlesFeature = defineFeature({
  repositories: (kit) => ({ articles: createArticlesRepository(kit) }),
  services: (deps) => ({
    articles: createArticlesService({
      ...deps,
      maxRenderBytes: deps.settings.maxRenderBytes,
      maxMarkdownBytes: deps.settings.maxMarkdownBytes,
      variantWidths: deps.settings.imageVariantWidths,
      dropVariants: (imageIds) => deps.services.variants.clearForQuietly(imageIds),
      // Looked up at call time: webhooks is built after this feature.
      effects: {
        activity: (event) => deps.services.activity.inWrite(event),
        webhook: (type, data, options) => deps.services.webhooks.inWrite(type, data, options),
      },
    }),
  }),
  routes: articlesRoutes,
});
