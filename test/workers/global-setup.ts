import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startSmtpCatcher } from '../support/smtp-catcher.js';
import { startReceiver } from '../support/webhook-receiver.node.js';

/**
 * Runs in Node for the workers project: a real SMTP catcher that the Worker
 * reaches through `cloudflare:sockets`, and a small inbox endpoint so tests
 * inside workerd can read what arrived.
 */
export default async function setup(project: TestProject) {
  const catcher = await startSmtpCatcher();
  // Advertises AUTH but takes mail without it, as many relays and development catchers do.
  const authOptional = await startSmtpCatcher({
    auth: { username: 'workerd', password: 'not-used-by-the-test', optional: true },
  });
  const inbox = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    const messages = [...catcher.messages, ...authOptional.messages];
    res.end(JSON.stringify(messages.map((m) => ({ to: m.envelopeTo, raw: m.raw, user: m.user ?? null }))));
  });
  await new Promise<void>((resolve) => inbox.listen(0, '127.0.0.1', resolve));
  project.provide('smtpPort', catcher.port);
  project.provide('smtpAuthOptionalPort', authOptional.port);
  project.provide('smtpInboxUrl', `http://127.0.0.1:${(inbox.address() as AddressInfo).port}`);
  // Webhook endpoints for the API suites in workerd, driven over HTTP (test/workers/support/remote-receiver.ts).
  const receiver = await startReceiver({ control: true });
  project.provide('webhookReceiverUrl', receiver.url);
  return async () => {
    await receiver.close();
    inbox.close();
    await catcher.stop();
    await authOptional.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    smtpPort: number;
    smtpAuthOptionalPort: number;
    smtpInboxUrl: string;
    webhookReceiverUrl: string;
  }
}
