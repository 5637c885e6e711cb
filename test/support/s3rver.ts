import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
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

interface S3rverFilesystemStore {
  rootDirectory: string;
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
}
interface S3rverObject {
  bucket: string;
  key: string;
  metadata: unknown;
  content: Buffer | NodeJS.ReadableStream;
}

let atomicPuts = false;
/**
 * s3rver writes an object in place, so two PUTs of one key interleave their
 * bytes; S3 (and R2, SeaweedFS, MinIO) replace an object whole. The blob store
 * contract checks that our adapter sends one whole PUT, so the server under it
 * must keep S3's promise: write to a file beside the bucket, then rename.
 */
function makeS3rverPutsAtomic(): void {
  if (atomicPuts) return;
  atomicPuts = true;
  const store = createRequire(import.meta.url)('s3rver/lib/stores/filesystem.js') as {
    prototype: S3rverFilesystemStore;
  };
  store.prototype.putObject = async function putObject(this: S3rverFilesystemStore, object: S3rverObject) {
    const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
    const partial = path.join(`${this.rootDirectory}-partial`, randomUUID());
    await mkdir(path.dirname(objectPath), { recursive: true });
    await mkdir(path.dirname(partial), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    const out = createWriteStream(partial);
    const content = object.content;
    const chunks: Iterable<Buffer> | AsyncIterable<Buffer> = Buffer.isBuffer(content)
      ? [content as Buffer]
      : (content as unknown as AsyncIterable<Buffer>);
    for await (const chunk of chunks) {
      md5.update(chunk);
      size += chunk.length;
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    await rename(partial, objectPath);
    const digest = md5.digest('hex');
    await this.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}

/**
 * A real S3 implementation on 127.0.0.1, random port, temp directory, bucket
 * created up front. Throws if it cannot start, so a suite depending on it
 * fails instead of silently skipping.
 */
export async function startS3rver(bucket = 'cms-test'): Promise<RunningS3rver> {
  makeS3rverPutsAtomic();
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
      await rm(`${directory}-partial`, { recursive: true, force: true });
    },
  };
}
