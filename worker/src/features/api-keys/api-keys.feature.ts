import { defineFeature } from '../../feature-api/feature.js';
import { createApiKeysRepository } from './api-keys.repository.js';
import { apiKeysRoutes } from './api-keys.routes.js';
import { type ApiKeysService, createApiKeysService } from './api-keys.service.js';

declare module '../../http/env.js' {
  interface Services {
    apiKeys: ApiKeysService;
  }
}

/** The owner's integration keys. */
export const apiKeysFeature = defineFeature({
  repositories: (kit) => ({ apiKeys: createApiKeysRepository(kit) }),
  services: (deps) => ({ apiKeys: createApiKeysService(deps) }),
  routes: apiKeysRoutes,
});
