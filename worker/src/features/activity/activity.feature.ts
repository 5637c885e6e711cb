import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import { activityRoutes } from './activity.routes.js';
import { createActivityService } from './activity.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const activityServices = (deps: ServiceDeps) => ({ activity: createActivityService(deps) });

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof activityServices> {}
}

/** The activity log: who changed what, when, from where. Stored through the ActivityLogStore port. */
export const activityFeature = defineFeature({
  services: activityServices,
  routes: activityRoutes,
});
