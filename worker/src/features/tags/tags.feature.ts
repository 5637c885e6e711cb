import { defineFeature } from '../../feature-api/feature.js';
import { createTagsRepository } from './tags.repository.js';
import { tagsRoutes } from './tags.routes.js';
import { createTagsService, type TagsService } from './tags.service.js';

declare module '../../http/env.js' {
  interface Services {
    tags: TagsService;
  }
}

/** Tags: a small catalogue articles carry in order (`tagIds` → `tags`), filtered by `?tag=`. */
export const tagsFeature = defineFeature({
  repositories: (kit) => ({ tags: createTagsRepository(kit) }),
  services: (deps) => ({ tags: createTagsService(deps) }),
  routes: tagsRoutes,
});
