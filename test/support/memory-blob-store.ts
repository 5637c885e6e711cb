import type { BlobInfo, BlobStore } from '../../worker/src/ports/blob-store.js';

/**
 * A BlobStore in memory for unit tests of the core, paged like the real
 * ones (`pageSize` small enough to make callers follow cursors).
 */
export function memoryBlobStore(pageSize = 1000): BlobStore & { keys(): string[] } {
  const objects = new Map<string, { data: Uint8Array; info: BlobInfo }>();
  const body = (data: Uint8Array) => new Response(data as Uint8Array<ArrayBuffer>).body!;
  return {
    keys: () => [...objects.keys()].sort(),
    async put(key, data, contentType) {
      objects.set(key, {
        data: data.slice(),
        info: { key, size: data.byteLength, contentType, uploadedAt: new Date() },
      });
    },
    async get(key) {
      const o = objects.get(key);
      return o ? { ...o.info, body: body(o.data) } : null;
    },
    async head(key) {
      return objects.get(key)?.info ?? null;
    },
    async delete(key) {
      objects.delete(key);
    },
    async list(prefix, cursor, limit = pageSize) {
      const keys = [...objects.keys()]
        .filter((k) => k.startsWith(prefix) && (cursor === undefined || k > cursor))
        .sort();
      const page = keys.slice(0, Math.min(limit, pageSize));
      return {
        items: page.map((k) => objects.get(k)!.info),
        cursor: keys.length > page.length ? page[page.length - 1]! : null,
      };
    },
    async ping() {},
  };
}
