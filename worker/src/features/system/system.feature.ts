import type { UpdateService } from '../../core/releases/update.service.js';
import { defineFeature } from '../../feature-api/feature.js';
import { buildOpenApiDocument } from '../../http/openapi.js';
import { systemRoutes } from './system.routes.js';
import { createSystemService, type SystemService } from './system.service.js';
import { updateRoutes } from './update.routes.js';

declare module '../../http/env.js' {
  interface Services {
    system: SystemService;
    /** `/v1/openapi.json`, built from every route's declaration on first request and kept. */
    apiDescription: { document(): ReturnType<typeof buildOpenApiDocument> };
    /** Release feed checks (both targets) and staging and switching (Node under the supervisor). */
    updates: UpdateService;
  }
}

/** Health, readiness, version, the API description and updates. */
export const systemFeature = defineFeature({
  services: (deps) => {
    let document: ReturnType<typeof buildOpenApiDocument> | undefined;
    return {
      system: createSystemService(deps),
      apiDescription: {
        document: () => {
          document ??= buildOpenApiDocument(deps.routes, deps.version);
          return document;
        },
      },
      updates: deps.updates,
    };
  },
  routes: [...systemRoutes, ...updateRoutes],
});
