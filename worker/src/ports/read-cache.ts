/** An answer kept for a URL: the body as sent and its type. */
export interface CachedAnswer {
  body: string;
  contentType: string;
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
  get(key: string): CachedAnswer | undefined;
  set(key: string, answer: CachedAnswer): void;
  invalidate(): void;
  size(): number;
}
