import { defineFeature } from '../../feature-api/feature.js';
import { serverLinks } from '../../wire/links.js';
import { createArticleDraftsRepository } from './article-drafts.repository.js';
import { articleDraftsRoutes } from './article-drafts.routes.js';
import { createDrafts, type Drafts } from './article-drafts.service.js';
import { createRevisions, type Revisions } from './article-revisions.js';
import { createArticleRevisionsRepository } from './article-revisions.repository.js';
import { createArticlesRepository } from './articles.repository.js';
import { articlesRoutes } from './articles.routes.js';
import { type ArticlesService, createArticlesService } from './articles.service.js';

declare module '../../http/env.js' {
  interface Services {
    articles: ArticlesService;
    /** Pending drafts of articles, apart from the live text. */
    articleDrafts: Drafts;
    /** What online articles were at each publication and update. */
    articleRevisions: Revisions;
  }
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
  services: (deps) => {
    const articleRevisions = createRevisions({
      ...deps,
      maxCount: deps.settings.revisionsMaxCount,
      maxBytes: deps.settings.revisionsMaxBytes,
    });
    const articles = createArticlesService({
      ...deps,
      maxRenderBytes: deps.settings.maxRenderBytes,
      maxMarkdownBytes: deps.settings.maxMarkdownBytes,
      variantWidths: deps.settings.imageVariantWidths,
      dropVariants: (imageIds) => deps.services.variants.clearForQuietly(imageIds),
      // Looked up at call time: webhooks is built after this feature.
      effects: {
        activity: (event) => deps.services.activity.inWrite(event),
        webhook: (type, data, options) => deps.services.webhooks.inWrite(type, data, options),
        revision: articleRevisions.inWrite,
      },
    });
    return {
      articles,
      articleRevisions,
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
  },
  routes: [...articlesRoutes, ...articleDraftsRoutes],
  jobs: (services, deps) => [
    {
      name: 'scheduled-updates',
      run: (now) => services.articleDrafts.publishDue(now, serverLinks(deps.settings)),
    },
  ],
});
