/** An answer kept for a URL: the body as sent, its type and its ETag. */
export interface CachedAnswer {
  body: string;
  contentType: string;
  etag: string;
}

/**
 * As kept: the body's UTF-8 bytes, encoded once when stored, so that a hit
 * writes them as they are instead of measuring and encoding the text again
 * (a list page is ~30 KiB; docs/benchmarks.md).
 */
export interface KeptAnswer extends Omit<CachedAnswer, 'body'> {
  body: Uint8Array<ArrayBuffer>;
}

/**
 * Anonymous reads kept by URL (path and query as sent), for a single
 * instance over its own database (Node with SQLite), where every write
 * passes through this process. Any successful write empties it, so a change
 * is visible on the very next read; internal writers (scheduled jobs) call
 * `invalidate()` too.
 */
export interface ReadCache {
  /** The answer for this key, which becomes the most recently used. */
  get(key: string): KeptAnswer | undefined;
  set(key: string, answer: CachedAnswer): void;
  invalidate(): void;
  size(): number;
}
