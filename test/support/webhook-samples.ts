import type { Webhook } from '../../worker/src/features/webhooks/webhooks.port.js';
import { newId } from './db-contract.js';

const NOW = new Date('2026-11-26T10:00:00.000Z');

/** A stored endpoint for repository suites (its sealed secret is made up: nothing here signs). Runs in workerd too. */
export function sampleWebhook(overrides: Partial<Webhook> = {}): Webhook {
  return {
    id: newId(),
    url: 'https://hooks.example/receive?x=1',
    events: ['article.published', 'article.deleted'],
    description: 'Rebuild the site',
    sealedSecret: 'v1.aXY=.c2VhbGVk',
    active: true,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}
