import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import { buildOpenApiDocument } from '../../http/openapi.js';
import { systemRoutes } from './system.routes.js';
import { createSystemService } from './system.service.js';
import { updateRoutes } from './update.routes.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const systemServices = (deps: ServiceDeps) => {
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  return {
    system: createSystemService(deps),
    /** `/v1/openapi.json`, built from every route's declaration on first request and kept. */
    apiDescription: {
      document: () => {
        document ??= buildOpenApiDocument(deps.routes, deps.version);
        return document;
      },
    },
    /** Release feed checks (both targets) and staging and switching (Node under the supervisor). */
    updates: deps.updates,
  };
};

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof systemServices> {}
}

/** Health, readiness, version, the API description and updates. */
export const systemFeature = defineFeature({
  services: systemServices,
  routes: [...systemRoutes, ...updateRoutes],
});
