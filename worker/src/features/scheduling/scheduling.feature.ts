import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import { serverLinks } from '../../wire/links.js';
import { createSchedulingRepository } from './scheduling.repository.js';
import { schedulingRoutes } from './scheduling.routes.js';
import { createSchedulingService } from './scheduling.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const schedulingServices = (deps: ServiceDeps) => {
  // Typed by the service's own deps: this builder's type must not wait on the services it calls (Services is made of it).
  const ports: Pick<Parameters<typeof createSchedulingService>[0], 'readArticle' | 'effects'> = {
    readArticle: (id) => deps.services.articles.read(id, serverLinks(deps.settings)),
    // Looked up at call time: webhooks is built after this feature.
    effects: {
      activity: (event) => deps.services.activity.inWrite(event),
      webhook: (type, data, options) => deps.services.webhooks.inWrite(type, data, options),
      // A scheduled publication keeps its revision like any other.
      revision: (article, by) => deps.services.articleRevisions.inWrite(article, by),
    },
  };
  return { scheduling: createSchedulingService({ ...deps, ...ports }) };
};

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof schedulingServices> {}
}

/** Publishing articles at a set time: the schedule routes and the scheduler job. */
export const schedulingFeature = defineFeature({
  repositories: (kit) => ({ scheduling: createSchedulingRepository(kit) }),
  services: schedulingServices,
  routes: schedulingRoutes,
  jobs: (services) => [{ name: 'scheduler', run: (now) => services.scheduling.publishDue(now) }],
});
