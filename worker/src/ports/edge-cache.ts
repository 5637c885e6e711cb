import type { CachedAnswer } from './read-cache.js';

/** A kept answer as the Cache API gives it back: the body is passed on as a stream, never read into a string. */
export type EdgeHit = Omit<CachedAnswer, 'body'> & { body: ReadableStream<Uint8Array> | null };

/**
 * Public reads kept in the data centre that served them (the Workers Cache
 * API). A write must make the next read miss in the data centre where it
 * happened; other data centres keep their copies for at most
 * `PUBLIC_CACHE_SECONDS`, or until a purge reaches them (docs/caching.md).
 */
export interface EdgeCache {
  /**
   * This data centre's answer for a URL (path and query), and its current
   * generation: what a miss must be stored under, and the database
   * bookmark of the last write seen here (null when none is known), which
   * the read must be at least as fresh as.
   */
  lookup(url: string): Promise<{ hit: EdgeHit | undefined; generation: string; readAfter: string | null }>;
  /** Keeps a public answer under the generation `lookup` gave (done after the response). */
  store(url: string, generation: string, answer: CachedAnswer): Promise<void>;
  /**
   * Whether uploaded images are kept too: only where a delete purges them
   * everywhere (zone and token configured); otherwise every data centre
   * but the deleting one could serve a deleted image until it expired.
   */
  readonly keepsFiles: boolean;
  /** An uploaded image kept here (its stored headers and body), and the generation, as `lookup`. */
  lookupFile(url: string): Promise<{ hit: Response | undefined; generation: string; readAfter: string | null }>;
  /** Keeps an uploaded image's answer (a copy of it) under the generation `lookupFile` gave. */
  storeFile(url: string, generation: string, answer: Response): Promise<void>;
  /**
   * A write happened (its bookmark, when the database gives one): from now
   * on every lookup here misses, and reads start at that bookmark; the purge
   * of every other data centre is queued.
   */
  changed(bookmark: string | null): Promise<void>;
  /** Sends the purge everywhere now (after the response); a failure stays queued for `retry`. */
  purge(): Promise<void>;
  /** The scheduler's retry of a purge that failed; what it did. */
  retry(): Promise<'idle' | 'purged' | 'failed'>;
}

/** Where a request's database reads may be answered (D1 read replicas), kept per request. */
export interface DatabaseSessions {
  /**
   * Runs `work` in a session that starts at `start` (a bookmark,
   * `first-primary` or `first-unconstrained`); gives back the bookmark the
   * session reached, to continue from in a later request.
   */
  run(start: string, work: () => Promise<void>): Promise<string | null>;
}
