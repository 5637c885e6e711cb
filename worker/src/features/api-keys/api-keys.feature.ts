import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import { createApiKeysRepository } from './api-keys.repository.js';
import { apiKeysRoutes } from './api-keys.routes.js';
import { createApiKeysService } from './api-keys.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const apiKeysServices = (deps: ServiceDeps) => ({ apiKeys: createApiKeysService(deps) });

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof apiKeysServices> {}
}

/** The owner's integration keys. */
export const apiKeysFeature = defineFeature({
  repositories: (kit) => ({ apiKeys: createApiKeysRepository(kit) }),
  services: apiKeysServices,
  routes: apiKeysRoutes,
});
