import { failureReason } from '../../core/domain/failure-reason.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { AttemptOutcome } from './webhook.schema.js';
import type { SecretSealer } from './webhook-crypto.js';
import { signWebhook } from './webhook-crypto.js';
import type { OutboundResult, WebhookAttempt, WebhookDelivery, WebhookTransport } from './webhooks.port.js';

/** Standard Webhooks asks for a short timeout; ours is ten seconds per attempt. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/**
 * Wait after the nth failed attempt: seven attempts over about four and a
 * half hours (the sixth comes 1 h 42 min after the first), so an endpoint
 * that is down for an hour still gets everything.
 */
export const RETRY_DELAYS_MS = [30, 120, 600, 1800, 3600, 10_800].map((s) => s * 1000);
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/**
 * A claim holds a delivery this long and is renewed every CLAIM_RENEW_MS
 * while its attempt is in flight, so a sender that dies (a killed instance,
 * an evicted isolate) lets go within CLAIM_MS, and the next sweep sends it
 * again under the same `webhook-id`. Two renewals may be missed (a slow
 * database) before another sender could take an attempt still in flight.
 */
export const CLAIM_MS = 6000;
const CLAIM_RENEW_MS = 2000;
/** Per scheduled run: bounded, so one tick never outlives the next (at most 50 × 10 s / 4 in flight). */
const BATCH = 50;
const CONCURRENCY = 4;
/** Events, deliveries and attempts are kept this long, then pruned by the scheduled run. */
export const HISTORY_MS = 30 * 24 * 3600 * 1000;

export interface DeliveryDeps {
  repos: Repositories;
  clock: Clock;
  ids: IdGenerator;
  transport: WebhookTransport;
  sealer: SecretSealer;
  allowPrivateTargets: boolean;
  logError: (message: string, err: unknown) => void;
}

export interface DeliverySummary {
  delivered: number;
  retrying: number;
  failed: number;
  pruned: number;
}

/** Attempts are kept and shown to the owner: a classified reason; the error itself is not stored. */
const describeError = (err: unknown) => failureReason(err, 'delivery failed');

/** Sends what the outbox holds: one attempt per claim, retried with backoff, never more than one sender per attempt. */
export function createWebhookDelivery(deps: DeliveryDeps) {
  const { repos, clock, ids, transport, sealer } = deps;

  async function send(delivery: WebhookDelivery): Promise<{ result: OutboundResult; eventType: string } | null> {
    const [event, webhook] = await Promise.all([
      repos.webhooks.findEvent(delivery.eventId),
      repos.webhooks.findById(delivery.webhookId),
    ]);
    if (!event || !webhook) return null;
    try {
      const secret = await sealer.open(webhook.sealedSecret, webhook.id);
      // The signing time, in seconds: receivers refuse messages too far from their own clock.
      const timestamp = Math.floor(clock.now().getTime() / 1000);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'edge-cms-webhooks/1',
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': await signWebhook(secret, event.id, timestamp, event.body),
      };
      const result = await transport.post({
        url: webhook.url,
        headers,
        body: event.body,
        timeoutMs: DELIVERY_TIMEOUT_MS,
        allowPrivate: deps.allowPrivateTargets,
      });
      return { result, eventType: event.type };
    } catch (err) {
      return { result: { ok: false, error: describeError(err) }, eventType: event.type };
    }
  }

  /**
   * One attempt at one delivery, if this caller wins its claim: sends,
   * records what happened and when to try again. Null when another sender
   * has it, or its endpoint or event is gone.
   */
  async function attempt(delivery: WebhookDelivery, now: Date): Promise<WebhookAttempt | null> {
    const until = (at: Date) => new Date(at.getTime() + CLAIM_MS);
    if (!(await repos.webhooks.claim(delivery.id, delivery.attempts, now, until(now)))) return null;
    const number = delivery.attempts + 1;
    const started = clock.now();
    const renew = setInterval(() => {
      repos.webhooks
        .extendClaim(delivery.id, number, until(clock.now()))
        .catch((err) => deps.logError('webhook claim not renewed', err));
    }, CLAIM_RENEW_MS);
    let sent: Awaited<ReturnType<typeof send>>;
    try {
      sent = await send(delivery);
    } finally {
      clearInterval(renew);
    }
    if (!sent) return null;
    const { result } = sent;
    const at = clock.now();
    const ok = result.ok && result.status >= 200 && result.status < 300;
    const outcome: AttemptOutcome = ok ? 'delivered' : number >= delivery.maxAttempts ? 'failed' : 'retrying';
    const delay = RETRY_DELAYS_MS[Math.min(number, RETRY_DELAYS_MS.length) - 1]!;
    const nextAttemptAt = outcome === 'retrying' ? new Date(at.getTime() + delay) : null;
    const record: WebhookAttempt = {
      id: ids.newId(),
      webhookId: delivery.webhookId,
      deliveryId: delivery.id,
      eventId: delivery.eventId,
      eventType: sent.eventType,
      attempt: number,
      at,
      outcome,
      statusCode: result.ok ? result.status : null,
      error: result.ok ? null : result.error.slice(0, 500),
      durationMs: Math.max(0, at.getTime() - started.getTime()),
      nextAttemptAt,
    };
    const status = outcome === 'retrying' ? 'pending' : outcome;
    await repos.webhooks.recordAttempt(record, { status, nextAttemptAt });
    return record;
  }

  /** Runs `work` over `items`, at most `limit` at a time. */
  async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    const lane = async () => {
      while (next < items.length) await work(items[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  }

  /**
   * Every due delivery (up to a batch): retries, and attempts whose sender
   * died. What the frequent sweep runs (every few seconds on Node).
   */
  async function sendDue(now: Date): Promise<Omit<DeliverySummary, 'pruned'>> {
    const summary = { delivered: 0, retrying: 0, failed: 0 };
    // Nothing pending, the usual case at rest: one prepared statement instead
    // of the two below, which drizzle builds and the database prepares on every call.
    if (!(await repos.webhooks.anyPending())) return summary;
    summary.failed += await repos.webhooks.failSpent(now);
    const due = await repos.webhooks.due(now, BATCH);
    await pool(due, CONCURRENCY, async (d) => {
      const done = await attempt(d, now).catch((err) => {
        deps.logError('webhook delivery failed', err);
        return null;
      });
      if (done) summary[done.outcome] += 1;
    });
    return summary;
  }

  return {
    attempt,

    /** Right after a change: the first attempt of the deliveries it queued. Never rejects. */
    async deliverNow(deliveries: WebhookDelivery[]): Promise<void> {
      await pool(deliveries, CONCURRENCY, async (d) => {
        await attempt(d, clock.now()).catch((err) => deps.logError('webhook delivery failed', err));
      });
    },

    sendDue,

    /** What the scheduler runs: every due delivery, then old history pruned. */
    async deliverDue(now: Date): Promise<DeliverySummary> {
      const sent = await sendDue(now);
      return { ...sent, pruned: await repos.webhooks.prune(new Date(now.getTime() - HISTORY_MS), 500) };
    },
  };
}

export type WebhookDeliveryService = ReturnType<typeof createWebhookDelivery>;
