import type { Actor } from '../auth/actor.js';
import type { WebhookEventType } from '../wire/vocabulary.js';
import type { Defer } from './runtime.js';
import type { Consequences } from './unit-of-work.js';

/**
 * Who made a write and what it causes beyond its own rows: the activity
 * entry and the webhook event that commit with it (ports/unit-of-work.ts).
 * The activity and webhooks features provide them; the features that write
 * (articles, media, the scheduler) and the HTTP layer only name them.
 */

/** Work done by the service itself (the scheduled purge, an automatic rollback). */
export const SYSTEM: { type: 'system' } = { type: 'system' };

/** An Actor, or just the id of the account concerned (a login: the account that just signed in). */
export type ActivityActor = Actor | typeof SYSTEM | { type: 'user'; user: { id: string } };

/** Who writes, from where, and where work after the commit goes (waitUntil, the process's deferred work). */
export interface WriteOrigin {
  actor: ActivityActor;
  ip: string | null;
  defer: Defer;
}

export interface ActivityEvent {
  actor: ActivityActor;
  action: string;
  subject?: { type: string; id: string | null } | null;
  ip?: string | null;
  details?: Record<string, unknown> | null;
}

/** What a writing feature needs from the features a write concerns: its activity entry and its webhook event. */
export interface WriteEffects {
  activity(event: ActivityEvent): Promise<Consequences>;
  webhook(type: WebhookEventType, data: unknown, options: { defer?: Defer; dedupeKey?: string }): Promise<Consequences>;
}

/** Runs what follows a committed write, after the answer where the runtime allows. */
export function settle(consequences: Consequences, by: WriteOrigin): void {
  if (consequences.afterCommit.length === 0) return;
  by.defer(Promise.all(consequences.afterCommit.map((step) => step())));
}
