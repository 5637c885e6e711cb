import { defineFeature } from '../../feature-api/feature.js';
import { createAuthorsRepository } from './authors.repository.js';
import { authorsRoutes } from './authors.routes.js';
import { type AuthorsService, createAuthorsService } from './authors.service.js';

declare module '../../http/env.js' {
  interface Services {
    authors: AuthorsService;
  }
}

/** The people articles name as their authors. */
export const authorsFeature = defineFeature({
  repositories: (kit) => ({ authors: createAuthorsRepository(kit) }),
  services: (deps) => ({ authors: createAuthorsService(deps) }),
  routes: authorsRoutes,
});
