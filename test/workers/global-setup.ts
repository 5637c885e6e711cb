import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startSmtpCatcher } from '../support/smtp-catcher.js';

/**
 * Runs in Node for the workers project: a real SMTP catcher that the Worker
 * reaches through `cloudflare:sockets`, and a small inbox endpoint so tests
 * inside workerd can read what arrived.
 */
export default async function setup(project: TestProject) {
  const catcher = await startSmtpCatcher();
  const inbox = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(catcher.messages.map((m) => ({ to: m.envelopeTo, raw: m.raw }))));
  });
  await new Promise<void>((resolve) => inbox.listen(0, '127.0.0.1', resolve));
  project.provide('smtpPort', catcher.port);
  project.provide('smtpInboxUrl', `http://127.0.0.1:${(inbox.address() as AddressInfo).port}`);
  return async () => {
    inbox.close();
    await catcher.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    smtpPort: number;
    smtpInboxUrl: string;
  }
}
