import { defineFeature } from '../../feature-api/feature.js';
import { serverLinks } from '../../wire/links.js';
import { createSchedulingRepository } from './scheduling.repository.js';
import { schedulingRoutes } from './scheduling.routes.js';
import { createSchedulingService, type SchedulingService } from './scheduling.service.js';

declare module '../../http/env.js' {
  interface Services {
    scheduling: SchedulingService;
  }
}

/** Publishing articles at a set time: the schedule routes and the scheduler job. */
export const schedulingFeature = defineFeature({
  repositories: (kit) => ({ scheduling: createSchedulingRepository(kit) }),
  services: (deps) => ({
    scheduling: createSchedulingService({
      ...deps,
      readArticle: (id) => deps.services.articles.read(id, serverLinks(deps.settings)),
      // Looked up at call time: webhooks is built after this feature.
      effects: {
        activity: (event) => deps.services.activity.inWrite(event),
        webhook: (type, data, options) => deps.services.webhooks.inWrite(type, data, options),
        // A scheduled publication keeps its revision like any other.
        revision: (article, by) => deps.services.articleRevisions.inWrite(article, by),
      },
    }),
  }),
  routes: schedulingRoutes,
  jobs: (services) => [{ name: 'scheduler', run: (now) => services.scheduling.publishDue(now) }],
});
