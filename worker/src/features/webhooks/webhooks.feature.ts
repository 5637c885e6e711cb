import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import { secretSealer } from './webhook-crypto.js';
import { createWebhooksRepository } from './webhooks.repository.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { createWebhooksService } from './webhooks.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const webhooksServices = (deps: ServiceDeps) => ({
  webhooks: createWebhooksService({
    ...deps,
    transport: deps.webhookTransport,
    sealer: secretSealer(deps.settings.jwtSecret ?? ''),
    allowPrivateTargets: deps.settings.webhookAllowPrivateTargets,
  }),
});

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof webhooksServices> {}
}

/** Webhook endpoints, the outbox of events, and their delivery (at once after a change, then by the scheduler). */
export const webhooksFeature = defineFeature({
  repositories: (kit) => ({ webhooks: createWebhooksRepository(kit) }),
  services: webhooksServices,
  routes: webhooksRoutes,
  jobs: (services) => [
    {
      name: 'webhooks',
      run: (now) => services.webhooks.delivery.deliverDue(now),
      // Retries and attempts whose sender died go out within seconds, not at the next tick.
      frequent: (now) => services.webhooks.delivery.sendDue(now),
    },
  ],
});
