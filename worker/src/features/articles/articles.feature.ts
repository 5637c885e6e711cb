import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import { serverLinks } from '../../wire/links.js';
import { createArticleDraftsRepository } from './article-drafts.repository.js';
import { articleDraftsRoutes } from './article-drafts.routes.js';
import { createDrafts } from './article-drafts.service.js';
import { createRevisions } from './article-revisions.js';
import { createArticleRevisionsRepository } from './article-revisions.repository.js';
import { createArticlesRepository } from './articles.repository.js';
import { articlesRoutes } from './articles.routes.js';
import { createArticlesService } from './articles.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const articlesServices = (deps: ServiceDeps) => {
  const articleRevisions = createRevisions({
    ...deps,
    maxCount: deps.settings.revisionsMaxCount,
    maxBytes: deps.settings.revisionsMaxBytes,
  });
  // Typed by the service's own deps: this builder's type must not wait on the services it calls (Services is made of it).
  const ports: Pick<Parameters<typeof createArticlesService>[0], 'dropVariants' | 'effects'> = {
    dropVariants: (imageIds) => deps.services.variants.clearForQuietly(imageIds),
    // Looked up at call time: webhooks is built after this feature.
    effects: {
      activity: (event) => deps.services.activity.inWrite(event),
      webhook: (type, data, options) => deps.services.webhooks.inWrite(type, data, options),
      revision: articleRevisions.inWrite,
    },
  };
  const articles = createArticlesService({
    ...deps,
    maxRenderBytes: deps.settings.maxRenderBytes,
    maxMarkdownBytes: deps.settings.maxMarkdownBytes,
    variantWidths: deps.settings.imageVariantWidths,
    ...ports,
  });
  return {
    articles,
    /** What online articles were at each publication and update. */
    articleRevisions,
    /** Pending drafts of articles, apart from the live text. */
    articleDrafts: createDrafts({
      ...deps,
      maxRenderBytes: deps.settings.maxRenderBytes,
      maxMarkdownBytes: deps.settings.maxMarkdownBytes,
      variantWidths: deps.settings.imageVariantWidths,
      articles,
      revisions: articleRevisions,
      changed: async () => {
        deps.publicReadCache?.invalidate();
        // The cron's data centre misses from now on; the others are purged (or expire).
        await deps.edgeCache
          ?.changed(null)
          .then(() => deps.edgeCache?.purge())
          .catch((err) => deps.logError('edge cache not told of scheduled updates', err));
      },
    }),
  };
};

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof articlesServices> {}
}

/** Articles, their SEO record, the images they show, their drafts and revisions. */
export const articlesFeature = defineFeature({
  repositories: (kit) => ({
    articles: createArticlesRepository(kit),
    articleDrafts: createArticleDraftsRepository(kit),
    articleRevisions: createArticleRevisionsRepository(kit),
  }),
  tables: {
    articleDrafts: { export: true },
    articleRevisions: { export: true },
  },
  services: articlesServices,
  routes: [...articlesRoutes, ...articleDraftsRoutes],
  jobs: (services, deps) => [
    {
      name: 'scheduled-updates',
      run: (now) => services.articleDrafts.publishDue(now, serverLinks(deps.settings)),
    },
  ],
});
