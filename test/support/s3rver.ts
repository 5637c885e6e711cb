import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The subset of s3rver (CommonJS, untyped) these tests use. */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;

export interface RunningS3rver {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

/**
 * A real S3 implementation on 127.0.0.1, random port, temp directory, bucket
 * created up front. Throws if it cannot start, so a suite depending on it
 * fails instead of silently skipping.
 */
export async function startS3rver(bucket = 'cms-test'): Promise<RunningS3rver> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;
  const directory = await mkdtemp(path.join(tmpdir(), 'cms-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  let address: AddressInfo;
  try {
    address = await server.run();
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw new Error(`s3rver could not start: ${(error as Error).message}`);
  }
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket,
    region: 'us-east-1',
    // s3rver's built-in account; it checks SigV4 signatures against it.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
