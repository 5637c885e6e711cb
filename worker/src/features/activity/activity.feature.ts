import { defineFeature } from '../../feature-api/feature.js';
import { activityRoutes } from './activity.routes.js';
import { type ActivityService, createActivityService } from './activity.service.js';

declare module '../../http/env.js' {
  interface Services {
    activity: ActivityService;
  }
}

/** The activity log: who changed what, when, from where. Stored through the ActivityLogStore port. */
export const activityFeature = defineFeature({
  services: (deps) => ({ activity: createActivityService(deps) }),
  routes: activityRoutes,
});
