import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import { createAuthorsRepository } from './authors.repository.js';
import { authorsRoutes } from './authors.routes.js';
import { createAuthorsService } from './authors.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const authorsServices = (deps: ServiceDeps) => ({ authors: createAuthorsService(deps) });

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof authorsServices> {}
}

/** The people articles name as their authors. */
export const authorsFeature = defineFeature({
  repositories: (kit) => ({ authors: createAuthorsRepository(kit) }),
  services: authorsServices,
  routes: authorsRoutes,
});
