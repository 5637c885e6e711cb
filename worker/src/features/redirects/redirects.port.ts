import type { Row } from '../../adapters/db/rows.js';

/** Redirects: what the core needs from storage. */

/**
 * A redirect is its row but for `fromHash`, the storage's unique key for
 * `from` (the repository keeps it in step): id, from, to, status, timestamps.
 */
export type Redirect = Omit<Row<'redirects'>, 'fromHash'>;

export type RedirectPatch = Partial<Pick<Redirect, 'from' | 'to' | 'status'>>;

export interface RedirectsRepository {
  /** A `from` in use → DomainError('conflict'). */
  create(redirect: Redirect): Promise<void>;
  /** Null when unknown (or the id is malformed). */
  findById(id: string): Promise<Redirect | null>;
  /** The redirect whose `from` is exactly this (normalised) path, or null. */
  findByFrom(from: string): Promise<Redirect | null>;
  /** Newest first (id descending), keyset paged. */
  list(query: { limit: number; beforeId?: string }): Promise<Redirect[]>;
  /**
   * Returns the updated redirect, or null when unknown or when `read` (the
   * `from` and `to` the caller's checks were made on) no longer holds: the
   * row changed since it was read, and nothing was written. A `from` in use
   * → DomainError('conflict').
   */
  update(id: string, patch: RedirectPatch, now: Date, read?: Pick<Redirect, 'from' | 'to'>): Promise<Redirect | null>;
  /** False when unknown. */
  delete(id: string): Promise<boolean>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    redirects: RedirectsRepository;
  }
}
