import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3BlobStore } from '../../worker/src/adapters/blob/s3.blob-store.js';
import { createSmtpMailer } from '../../worker/src/adapters/mail/smtp.mailer.js';
import { createJsonLogger } from '../../worker/src/adapters/runtime/system.runtime.js';
import { closedPort } from './blob/closed-port.js';

/**
 * Found by `npm run reliability` (faults step): the 503 for an unreachable
 * S3 endpoint named it ("S3 endpoint 127.0.0.1:PORT did not answer") to
 * anyone reading a public image, and the SMTP one named the mail server.
 * The address belongs in the log, not in the answer.
 */
describe('503s do not name the dependency that failed', () => {
  let failing: Server;
  let failingPort: number;
  beforeAll(async () => {
    failing = createServer((_, res) => {
      res.writeHead(503, { 'content-type': 'application/xml' });
      res.end('<Error><Code>SlowDown</Code></Error>');
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    failingPort = (failing.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => failing?.close(resolve));
  });

  const s3 = (port: number) =>
    createS3BlobStore({
      bucket: 'b',
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
    });

  it.each([
    ['an unreachable S3 endpoint', async () => s3(await closedPort()).get('a/b.bin')],
    ['an S3 endpoint answering 503', async () => s3(failingPort).get('a/b.bin')],
    [
      'an unreachable SMTP server',
      async () =>
        createSmtpMailer({
          url: `smtp://127.0.0.1:${await closedPort()}`,
          from: 'CMS <no-reply@example.test>',
          timeoutMs: 2000,
        }).send({
          to: 'ada@example.test',
          subject: 's',
          text: 't',
          html: '<p>t</p>',
        }),
    ],
  ])('%s: the message has no address, the logged cause has it', async (_, fail) => {
    const error = (await fail().catch((e: unknown) => e)) as Error & { code: string };
    expect(error.code).toBe('unavailable');
    expect(error.message).not.toMatch(/127\.0\.0\.1|:\d{2,5}\b/);
    const lines: string[] = [];
    createJsonLogger((l) => lines.push(l)).error('dependency unavailable', error);
    expect(JSON.parse(lines[0]!).cause).toMatch(/127\.0\.0\.1:\d+/);
  });
});
