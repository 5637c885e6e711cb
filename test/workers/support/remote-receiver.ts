import { inject } from 'vitest';
import type { ReceivedWebhook, WebhookReceiver } from '../../support/webhook-receiver.js';

/** An endpoint on the receiver the global setup runs in Node, reached from workerd over HTTP. */
export function remoteReceiver(): WebhookReceiver {
  const base = inject('webhookReceiverUrl');
  const key = crypto.randomUUID();
  const control = `${base}/control/${key}`;
  return {
    url: `${base}/hook/${key}`,
    received: async () => (await (await fetch(control)).json()) as ReceivedWebhook[],
    answer: async (statuses) => {
      await (await fetch(control, { method: 'PUT', body: JSON.stringify(statuses) })).arrayBuffer();
    },
  };
}
