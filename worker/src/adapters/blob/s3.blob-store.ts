import { AwsClient } from 'aws4fetch';
import { DomainError } from '../../core/domain/errors.js';
import type { BlobInfo, BlobPage, BlobStore } from '../../ports/blob-store.js';
import { assertValidBlobKey, assertValidBlobPrefix, isValidBlobKey, normaliseListLimit } from './blob-key.js';

export interface S3BlobStoreOptions {
  bucket: string;
  /** `https://host[:port]`, e.g. MinIO, R2's S3 API, s3rver, AWS. */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key`. */
  forcePathStyle: boolean;
  /** How long to wait for response headers; a body stream is not cut off. */
  timeoutMs?: number;
}

const DEFAULT_TYPE = 'application/octet-stream';

/**
 * The 503's message reaches anyone reading an image, so the endpoint's
 * address stays out of it; the log gets it through `cause`.
 */
const unavailable = (message: string, detail: string) =>
  Object.assign(new DomainError('unavailable', message), { cause: new Error(detail) });
/** HEADs in flight while filling in content types for a list page. */
const HEAD_CONCURRENCY = 8;

/**
 * S3 through aws4fetch: fetch + SigV4, nothing else, so the same file runs in
 * workerd and in Node. A single PUT is atomic in S3, which gives the port's
 * "never a partial object" for free; the payload hash makes the server reject
 * a body that arrives truncated.
 */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const client = new AwsClient({
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    service: 's3',
    region: options.region,
    // aws4fetch retries 5xx/429 with backoff; keep it short so a dead store is a quick 503.
    retries: 2,
  });
  const timeoutMs = options.timeoutMs ?? 15_000;
  const base = new URL(options.endpoint.replace(/\/+$/, ''));
  const basePath = base.pathname.replace(/\/+$/, '');
  const bucketUrl = options.forcePathStyle
    ? `${base.origin}${basePath}/${options.bucket}`
    : `${base.protocol}//${options.bucket}.${base.host}${basePath}`;
  const host = base.host;

  // Keys are restricted to URL-safe characters and have no "." segments, so
  // concatenation addresses exactly this key.
  const objectUrl = (key: string) => `${bucketUrl}/${key}`;

  async function send(method: string, url: string, init: RequestInit = {}): Promise<Response> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The abort alone is not always enough: after the endpoint refused and came back,
    // a PUT to a black-holed endpoint was seen ignoring it for 90 s (reliability
    // faults step). The race bounds the wait whatever the fetch does.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([client.fetch(url, { ...init, method, signal: controller.signal }), deadline]);
    } catch (err) {
      throw unavailable(
        'Storage unavailable: the S3 endpoint did not answer',
        `S3 endpoint ${host}: ${err instanceof Error ? err.message : String(err)}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  async function head(key: string): Promise<BlobInfo | null> {
    const response = await send('HEAD', objectUrl(key));
    if (response.status === 404) return null;
    await expectOk(response, 'read');
    return infoFrom(key, response.headers);
  }

  async function expectOk(response: Response, action: string): Promise<void> {
    if (response.ok) return;
    const detail = await errorCode(response);
    throw unavailable(
      `Storage unavailable: S3 ${action} failed (HTTP ${response.status}${detail ? ` ${detail}` : ''})`,
      `S3 ${action} at ${host}`,
    );
  }

  return {
    async put(key, data, contentType) {
      assertValidBlobKey(key);
      const body = ownBuffer(data);
      const response = await send('PUT', objectUrl(key), {
        body,
        headers: { 'Content-Type': contentType, 'X-Amz-Content-Sha256': await sha256Hex(body) },
      });
      await expectOk(response, 'write');
      await response.body?.cancel();
    },

    async get(key) {
      assertValidBlobKey(key);
      const response = await send('GET', objectUrl(key));
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      await expectOk(response, 'read');
      const body = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
      return { ...infoFrom(key, response.headers), body };
    },

    async head(key) {
      assertValidBlobKey(key);
      return head(key);
    },

    async delete(key) {
      assertValidBlobKey(key);
      const response = await send('DELETE', objectUrl(key));
      if (response.status !== 404) await expectOk(response, 'delete');
      await response.body?.cancel();
    },

    async list(prefix, cursor, limit): Promise<BlobPage> {
      assertValidBlobPrefix(prefix);
      const max = normaliseListLimit(limit);
      if (cursor !== undefined && (typeof cursor !== 'string' || cursor === '' || cursor.length > 1024)) {
        throw new DomainError('invalid_request', 'Invalid list cursor');
      }
      // ListObjects (v1) with `marker` = the last key of the previous page: every
      // S3 implementation has it, while V2 continuation tokens vary (s3rver
      // encrypts them with DES, which current OpenSSL no longer ships).
      const query = new URLSearchParams({ prefix, 'max-keys': String(max) });
      if (cursor !== undefined) query.set('marker', cursor);
      const response = await send('GET', `${bucketUrl}?${query}`);
      await expectOk(response, 'list');
      const xml = await response.text();
      const listed = [...xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)]
        .map((m) => xmlText(m[1] ?? '', 'Key'))
        .filter((k): k is string => k !== null);
      const truncated = xmlText(xml, 'IsTruncated') === 'true';
      // Listings do not return content types; HEAD fills them in and drops
      // objects deleted since the listing. Foreign keys our rule refuses are not ours.
      const infos = await mapLimit(listed.filter(isValidBlobKey), HEAD_CONCURRENCY, head);
      return {
        items: infos.filter((i): i is BlobInfo => i !== null),
        cursor: truncated ? (listed[listed.length - 1] ?? null) : null,
      };
    },

    async ping() {
      const response = await send('HEAD', bucketUrl);
      await expectOk(response, 'reach the bucket');
    },
  };
}

function infoFrom(key: string, headers: Headers): BlobInfo {
  const modified = headers.get('last-modified');
  const uploadedAt = modified ? new Date(modified) : new Date(0);
  return {
    key,
    size: Number(headers.get('content-length') ?? 0),
    contentType: headers.get('content-type') ?? DEFAULT_TYPE,
    uploadedAt: Number.isNaN(uploadedAt.getTime()) ? new Date(0) : uploadedAt,
  };
}

/** S3's error `Code` (e.g. `AccessDenied`), never the message, which can echo request details. */
async function errorCode(response: Response): Promise<string | null> {
  try {
    const code = xmlText(await response.text(), 'Code');
    return code && /^[A-Za-z]{1,64}$/.test(code) ? code : null;
  } catch {
    return null;
  }
}

function xmlText(xml: string, tag: string): string | null {
  const match = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml);
  return match ? decodeEntities(match[1] ?? '') : null;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(parseInt(entity.slice(1), 10));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[entity] ?? '';
  });
}

/** fetch and WebCrypto take ArrayBuffer-backed views only; copy the rare shared one. */
function ownBuffer(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return data.buffer instanceof ArrayBuffer ? (data as Uint8Array<ArrayBuffer>) : new Uint8Array(data);
}

async function sha256Hex(data: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function mapLimit<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
