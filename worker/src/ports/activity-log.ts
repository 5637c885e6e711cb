/**
 * The activity log's storage. Two adapters pass one contract suite
 * (test/contract/activity-log.contract.ts): an append-only NDJSON file on
 * Node, a table in D1 on Workers. Both bound the log by size, measured the
 * same way: the byte length of each entry's NDJSON line.
 */

import type { Rows } from './unit-of-work.js';

export type ActivityActorType = 'user' | 'apiKey' | 'system';

export interface ActivityEntry {
  /** UUIDv7: ids sort by time, and pages are keyed by id. */
  id: string;
  at: Date;
  actorType: ActivityActorType;
  /** The user's or the key's id; null for the system and for anonymous callers (a failed login). */
  actorId: string | null;
  /** `subject.verb`, e.g. `article.publish`. */
  action: string;
  subjectType: string | null;
  subjectId: string | null;
  ip: string | null;
  details: Record<string, unknown> | null;
}

export interface ActivityFilter {
  action?: string;
  actorId?: string;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

export interface ActivityPageQuery extends ActivityFilter {
  /** 1..1000. */
  limit: number;
  /** Only entries with an id lower than this (newest first). */
  beforeId?: string;
}

export interface ActivityCounts {
  byAction: Record<string, number>;
  /** Keyed `actorType:actorId` (`system`, `user:<id>`, `apiKey:<id>`, `user:anonymous`). */
  byActor: Record<string, number>;
  /** Keyed by UTC day, `YYYY-MM-DD`. */
  byDay: Record<string, number>;
  total: number;
}

export interface ActivityLogStore {
  /**
   * Adds the entry, then removes the oldest entries until the log is within
   * `maxBytes` again. An entry larger than the whole budget is refused
   * (DomainError 'payload_too_large'); callers keep details small.
   */
  append(entry: ActivityEntry): Promise<void>;
  /**
   * The entry as part of a write (ports/unit-of-work.ts). A database store
   * gives rows that commit in the write's transaction, and after the commit
   * trims the log; the file store gives no rows and appends the entry once
   * the write committed (a crash in between loses the entry, never adds one
   * for a write that did not happen). Refused like `append` when too large.
   */
  inWrite(entry: ActivityEntry): Promise<{ rows: Rows[]; afterCommit: () => Promise<void> }>;
  /** Newest first. */
  list(query: ActivityPageQuery): Promise<ActivityEntry[]>;
  /**
   * Every matching entry, newest first, in batches of at most `batchSize`:
   * what exports stream. Holds one batch at a time, and reads the log once.
   */
  scan(filter: ActivityFilter, batchSize: number): AsyncGenerator<ActivityEntry[]>;
  count(filter: ActivityFilter): Promise<ActivityCounts>;
  /** The log's current size in bytes. */
  size(): Promise<number>;
  readonly maxBytes: number;
}

/** The entry is stored; only the trim after it failed (the log may be over its bound until the next append). */
export class TrimFailed extends Error {
  constructor(cause: unknown) {
    super('activity log not trimmed', { cause });
    this.name = 'TrimFailed';
  }
}

/** The one way an entry is measured and written to NDJSON, shared by both adapters so sizes agree. */
export function entryLine(entry: ActivityEntry): string {
  return `${JSON.stringify({
    id: entry.id,
    at: entry.at.toISOString(),
    actorType: entry.actorType,
    actorId: entry.actorId,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId,
    ip: entry.ip,
    details: entry.details,
  })}\n`;
}

/** `system`, `user:<id>`, `apiKey:<id>`, or `user:anonymous` for a caller without an account (a failed login). */
export function actorKey(type: ActivityActorType, id: string | null): string {
  if (type === 'system') return 'system';
  return `${type}:${id ?? 'anonymous'}`;
}
