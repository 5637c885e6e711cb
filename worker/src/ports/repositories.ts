import type { Rows } from './unit-of-work.js';

/**
 * Persistence ports. Every adapter (D1, Node SQLite, MariaDB/MySQL, PostgreSQL)
 * passes the same contract suite. Adapters translate driver errors into
 * DomainError: unique violations → 'conflict', an unreachable database →
 * 'unavailable'. Each feature adds its own repository to `Repositories` in
 * its port file (`features/<name>/<name>.port.ts`); the platform's are here.
 */

/**
 * Named, expiring leases: several Node instances on one database, or
 * overlapping cron invocations, agree on who does a piece of work.
 */
export interface LeasesRepository {
  /**
   * True when `holder` now holds `name` until `expiresAt`: the lease was free,
   * expired, or already this holder's. Of concurrent acquirers exactly one wins.
   */
  acquire(name: string, holder: string, now: Date, expiresAt: Date): Promise<boolean>;
  /** Gives the lease up if `holder` still holds it. */
  release(name: string, holder: string): Promise<void>;
  /** Who holds `name` unexpired at `now`, or null: what a refused caller is told is running. */
  holder(name: string, now: Date): Promise<string | null>;
}

/** Small documents the service keeps about itself, by key, each with a version that never goes down. */
export interface SystemStateRepository {
  get(key: string): Promise<{ value: string; version: number } | null>;
  /**
   * Stores the value unless the key already holds a higher version (a
   * concurrent writer that saw newer data wins). True when stored.
   */
  save(key: string, value: string, version: number, now: Date): Promise<boolean>;
}

/** An answer kept for an Idempotency-Key: replayed as it was sent. */
export interface KeptAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body as sent (JSON text). */
  body: string;
}

/** Keeps a create's answer for its Idempotency-Key, in the create's transaction; no key, no rows. */
export type KeepAnswer = (answer: KeptAnswer) => Promise<Rows[]>;

/** What holds a key when a request could not claim it: its request's fingerprint, and its answer once it has one. */
export interface KeyHolder {
  fingerprint: string;
  /** Null while the first request is still running. */
  answer: KeptAnswer | null;
}

/**
 * Idempotency-Key records (docs/api.md#idempotency-key), per scope (the
 * caller) and key. A request claims its key first; the create it guards
 * completes the claim with its answer in its own transaction (`answerRows`),
 * so a create that committed always has its answer kept.
 */
export interface IdempotencyKeysRepository {
  /**
   * Takes the key for a request with this fingerprint (null), or names what
   * holds it. An expired record, or a claim older than `abandonedBefore`
   * that never got its answer (its process died), is replaced.
   */
  claim(
    scope: string,
    key: string,
    fingerprint: string,
    now: Date,
    expiresAt: Date,
    abandonedBefore: Date,
  ): Promise<KeyHolder | null>;
  /** The rows that complete the claim with its answer, for the create's transaction. */
  answerRows(scope: string, key: string, answer: KeptAnswer): Promise<Rows>;
  /** Drops a claim that got no answer (the create failed: nothing of it was written), so the key may be used again. */
  release(scope: string, key: string): Promise<void>;
}

/**
 * What public answers were made from, as one value shared by every
 * instance: it changes after every write that a public answer may show,
 * so an instance that remembers an answer's ETag with the generation it
 * was read at can answer a conditional read from this one lookup
 * (http/middleware/conditional-reads.ts, docs/caching.md).
 */
export interface ReadGeneration {
  /** The generation now ('' before the first write). */
  current(): Promise<string>;
  /** Moves it on, after a write committed. */
  advance(now: Date): Promise<void>;
}

export interface Repositories {
  idempotencyKeys: IdempotencyKeysRepository;
  leases: LeasesRepository;
  systemState: SystemStateRepository;
  readGeneration: ReadGeneration;
  /** Resolves when the database answers; throws DomainError('unavailable') otherwise. */
  ping(): Promise<void>;
}
