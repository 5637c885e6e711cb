import { DomainError } from '../../core/domain/errors.js';
import type { BlobInfo, BlobObject, BlobPage, BlobStore } from '../../ports/blob-store.js';
import { assertValidBlobKey, assertValidBlobPrefix, isValidBlobKey, normaliseListLimit } from './blob-key.js';

const DEFAULT_TYPE = 'application/octet-stream';

/** The Workers store: the R2 binding (`MEDIA`). R2 puts are atomic by design. */
export function createR2BlobStore(bucket: R2Bucket): BlobStore {
  return {
    async put(key, data, contentType) {
      assertValidBlobKey(key);
      await guard('write', () => bucket.put(key, data, { httpMetadata: { contentType } }));
    },

    async get(key) {
      assertValidBlobKey(key);
      const object = await guard('read', () => bucket.get(key));
      if (!object) return null;
      const body: BlobObject = { ...info(object), body: object.body };
      return body;
    },

    async head(key) {
      assertValidBlobKey(key);
      const object = await guard('read', () => bucket.head(key));
      return object ? info(object) : null;
    },

    async delete(key) {
      assertValidBlobKey(key);
      await guard('delete', () => bucket.delete(key));
    },

    async list(prefix, cursor, limit): Promise<BlobPage> {
      assertValidBlobPrefix(prefix);
      const max = normaliseListLimit(limit);
      if (cursor !== undefined && (typeof cursor !== 'string' || cursor === '')) {
        throw new DomainError('invalid_request', 'Invalid list cursor');
      }
      const options: R2ListOptions = { prefix, limit: max, include: ['httpMetadata'] };
      if (cursor !== undefined) options.cursor = cursor;
      const page = await guard('list', () => bucket.list(options));
      return {
        // Objects written by other tools may have keys our rule refuses; they are not ours.
        items: page.objects.filter((o) => isValidBlobKey(o.key)).map(info),
        cursor: page.truncated ? page.cursor : null,
      };
    },

    async ping() {
      await guard('reach', () => bucket.list({ limit: 1 }));
    },
  };
}

function info(object: R2Object): BlobInfo {
  return {
    key: object.key,
    size: object.size,
    contentType: object.httpMetadata?.contentType ?? DEFAULT_TYPE,
    uploadedAt: object.uploaded,
  };
}

/** Any binding failure means the bucket did not answer usefully: 503 upstream. */
async function guard<T>(action: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError('unavailable', `Storage unavailable: could not ${action} (R2)`);
  }
}
