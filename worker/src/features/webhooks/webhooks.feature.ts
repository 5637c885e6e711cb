import { defineFeature } from '../../feature-api/feature.js';
import { secretSealer } from './webhook-crypto.js';
import { createWebhooksRepository } from './webhooks.repository.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { createWebhooksService, type WebhooksService } from './webhooks.service.js';

declare module '../../http/env.js' {
  interface Services {
    webhooks: WebhooksService;
  }
}

/** Webhook endpoints, the outbox of events, and their delivery (at once after a change, then by the scheduler). */
export const webhooksFeature = defineFeature({
  repositories: (kit) => ({ webhooks: createWebhooksRepository(kit) }),
  services: (deps) => ({
    webhooks: createWebhooksService({
      ...deps,
      transport: deps.webhookTransport,
      sealer: secretSealer(deps.settings.jwtSecret ?? ''),
      allowPrivateTargets: deps.settings.webhookAllowPrivateTargets,
    }),
  }),
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
