import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import { createTagsRepository } from './tags.repository.js';
import { tagsRoutes } from './tags.routes.js';
import { createTagsService } from './tags.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const tagsServices = (deps: ServiceDeps) => ({ tags: createTagsService(deps) });

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof tagsServices> {}
}

/** Tags: a small catalogue articles carry in order (`tagIds` → `tags`), filtered by `?tag=`. */
export const tagsFeature = defineFeature({
  repositories: (kit) => ({ tags: createTagsRepository(kit) }),
  services: tagsServices,
  routes: tagsRoutes,
});
