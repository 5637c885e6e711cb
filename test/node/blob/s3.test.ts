import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3BlobStore } from '../../../worker/src/adapters/blob/s3.blob-store.js';
import { runBlobStoreContract } from '../../contract/blob-store.contract.js';
import { type RunningS3rver, startS3rver } from '../../support/s3rver.js';
import { closedPort } from './closed-port.js';

runBlobStoreContract('s3 (s3rver)', async () => {
  const s3 = await startS3rver();
  return {
    store: createS3BlobStore({ ...s3, forcePathStyle: true }),
    cleanup: () => s3.stop(),
  };
});

describe('s3 blob store faults', () => {
  let s3: RunningS3rver;
  let failing: Server;
  let failingPort: number;
  beforeAll(async () => {
    s3 = await startS3rver('cms-faults');
    failing = createServer((_, res) => {
      res.writeHead(503, { 'content-type': 'application/xml' });
      res.end('<Error><Code>SlowDown</Code><Message>secret detail</Message></Error>');
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    failingPort = (failing.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await s3?.stop();
    await new Promise((resolve) => failing?.close(resolve));
  });

  it('reports an unreachable endpoint as unavailable, quickly', async () => {
    const port = await closedPort();
    const store = createS3BlobStore({ ...s3, endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true });
    const started = Date.now();
    const attempts = [
      () => store.put('a/b.bin', new Uint8Array([1]), 'application/octet-stream'),
      () => store.get('a/b.bin'),
      () => store.head('a/b.bin'),
      () => store.delete('a/b.bin'),
      () => store.list('a/'),
      () => store.ping(),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ code: 'unavailable' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reports 5xx answers as unavailable, without the server message', async () => {
    const store = createS3BlobStore({ ...s3, endpoint: `http://127.0.0.1:${failingPort}`, forcePathStyle: true });
    const error = await store.get('a/b.bin').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unavailable' });
    expect((error as Error).message).toContain('503');
    expect((error as Error).message).toContain('SlowDown');
    expect((error as Error).message).not.toContain('secret detail');
    await expect(store.ping()).rejects.toMatchObject({ code: 'unavailable' });
  });

  // s3rver checks the access key id but not SigV4 signatures, so the bad credential here is the id.
  it('reports refused credentials as unavailable and never echoes the secret', async () => {
    const store = createS3BlobStore({
      ...s3,
      accessKeyId: 'UNKNOWN-KEY',
      secretAccessKey: 'not-the-secret-xyz',
      forcePathStyle: true,
    });
    const error = await store.put('a/b.bin', new Uint8Array([1]), 'application/octet-stream').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unavailable' });
    expect((error as Error).message).toContain('403');
    expect((error as Error).message).not.toContain('not-the-secret-xyz');
    await expect(store.ping()).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('reports a missing bucket on ping', async () => {
    const store = createS3BlobStore({ ...s3, bucket: 'no-such-bucket', forcePathStyle: true });
    await expect(store.ping()).rejects.toMatchObject({ code: 'unavailable' });
  });
});
