import type { Row } from '../../adapters/db/rows.js';
import type { Rows } from '../../ports/unit-of-work.js';
import type { WebhookEventType } from './webhook.schema.js';

/** Webhooks: what the core needs from storage, and from the network. */

/**
 * An endpoint: its row, but `events` is the list the comma-separated column
 * holds and `sealedSecret` the `secret` column (the signing secret sealed by
 * webhook-crypto.ts, never stored in the clear), so the repository maps them.
 */
export type Webhook = Omit<Row<'webhooks'>, 'events' | 'secret'> & {
  events: WebhookEventType[];
  sealedSecret: string;
};

export type WebhookPatch = Partial<Pick<Webhook, 'url' | 'events' | 'description' | 'active'>>;

/** One row of the outbox: the exact body every endpoint is sent; `dedupeKey` set for an event recorded once only. */
export type WebhookEvent = Row<'webhookEvents'>;

export type WebhookDelivery = Row<'webhookDeliveries'>;

/** One attempt as the deliveries list shows it; `outcome` is an AttemptOutcome. */
export type WebhookAttempt = Row<'webhookAttempts'>;

export interface WebhooksRepository {
  create(webhook: Webhook): Promise<void>;
  findById(id: string): Promise<Webhook | null>;
  /** Newest first (id descending). */
  list(query: { limit: number; beforeId?: string }): Promise<Webhook[]>;
  count(): Promise<number>;
  /** Active endpoints, oldest first (there are at most MAX_WEBHOOKS). */
  listActive(): Promise<Webhook[]>;
  /** The updated endpoint, or null when unknown. */
  update(id: string, patch: WebhookPatch, now: Date): Promise<Webhook | null>;
  /** Removes the endpoint with its deliveries and attempts; false when unknown. */
  delete(id: string): Promise<boolean>;

  /** The event and its deliveries (one per endpoint), all or nothing. */
  enqueue(event: WebhookEvent, deliveries: WebhookDelivery[]): Promise<void>;
  /**
   * The same rows for another feature's write (ports/unit-of-work.ts): they
   * commit in its transaction, only when it happens. A delivery whose
   * endpoint was deleted meanwhile is left out.
   */
  outboxRows(event: WebhookEvent, deliveries: WebhookDelivery[]): Promise<Rows>;
  findEvent(id: string): Promise<WebhookEvent | null>;
  /** Pending deliveries to active endpoints due at `now` with attempts left, soonest first. */
  due(now: Date, limit: number): Promise<WebhookDelivery[]>;
  /**
   * Takes one attempt of a delivery: true only for the one caller that moved
   * it from `seenAttempts` to the next (a conditional update), which also
   * pushes `nextAttemptAt` to `until`, so nobody else retries it meanwhile
   * and a crash mid-attempt only delays it.
   */
  claim(id: string, seenAttempts: number, now: Date, until: Date): Promise<boolean>;
  /**
   * Keeps a claim alive while its attempt is in flight: pushes `nextAttemptAt`
   * to `until` if attempt number `attempt` is still the latest claimed and
   * the delivery still pending. False when that claim is gone.
   */
  extendClaim(id: string, attempt: number, until: Date): Promise<boolean>;
  /** The attempt and the delivery's new state, at once. */
  recordAttempt(
    attempt: WebhookAttempt,
    delivery: { status: WebhookDelivery['status']; nextAttemptAt: Date | null },
  ): Promise<void>;
  /** Whether any delivery is pending: the sweep's first look, one statement prepared once. */
  anyPending(): Promise<boolean>;
  /** Deliveries whose every attempt was claimed but whose last one never reported (a crash): failed. */
  failSpent(now: Date): Promise<number>;
  /** Attempts of one endpoint, newest first. */
  listAttempts(webhookId: string, query: { limit: number; beforeId?: string }): Promise<WebhookAttempt[]>;
  /** Deletes finished deliveries, their attempts and events older than `before`, at most `limit` of each. */
  prune(before: Date, limit: number): Promise<number>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    webhooks: WebhooksRepository;
  }
}

export type { OutboundRequest, OutboundResult, WebhookTransport } from '../../ports/webhook-transport.js';
