import { DomainError, notFound } from '../../core/domain/errors.js';
import { decodeCursor, toPage } from '../../core/shared/pagination.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, Defer, IdGenerator } from '../../ports/runtime.js';
import { type Consequences, NO_CONSEQUENCES } from '../../ports/unit-of-work.js';
import type { Page } from '../../wire/pagination.schema.js';
import {
  type CreatedWebhookDto,
  type CreateWebhookInput,
  MAX_WEBHOOKS,
  type UpdateWebhookInput,
  WEBHOOK_TEST_EVENT,
  type WebhookAttemptDto,
  type WebhookDto,
  type WebhookEventType,
} from './webhook.schema.js';
import { newWebhookSecret, type SecretSealer } from './webhook-crypto.js';
import { createWebhookDelivery, MAX_ATTEMPTS } from './webhook-delivery.js';
import type { Webhook, WebhookAttempt, WebhookDelivery, WebhookEvent, WebhookTransport } from './webhooks.port.js';

export interface WebhooksDeps {
  repos: Repositories;
  clock: Clock;
  ids: IdGenerator;
  transport: WebhookTransport;
  sealer: SecretSealer;
  allowPrivateTargets: boolean;
  logError: (message: string, err: unknown) => void;
}

export const toWebhookDto = (w: Webhook): WebhookDto => ({
  id: w.id,
  url: w.url,
  events: w.events,
  description: w.description,
  active: w.active,
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
});

export const toAttemptDto = (a: WebhookAttempt): WebhookAttemptDto => ({
  id: a.id,
  deliveryId: a.deliveryId,
  eventId: a.eventId,
  type: a.eventType,
  attempt: a.attempt,
  at: a.at.toISOString(),
  status: a.outcome,
  statusCode: a.statusCode,
  error: a.error,
  durationMs: a.durationMs,
  nextAttemptAt: a.nextAttemptAt?.toISOString() ?? null,
});

/** The message every endpoint is sent: `{ type, timestamp, data }`, serialised once and signed as these bytes. */
export const eventBody = (type: string, at: Date, data: unknown): string =>
  JSON.stringify({ type, timestamp: at.toISOString(), data });

/** A pending delivery of `eventId` to `webhookId`, due now. */
export const newDelivery = (
  ids: IdGenerator,
  webhookId: string,
  eventId: string,
  now: Date,
  maxAttempts = MAX_ATTEMPTS,
): WebhookDelivery => ({
  id: ids.newId(),
  webhookId,
  eventId,
  status: 'pending',
  attempts: 0,
  maxAttempts,
  nextAttemptAt: now,
  createdAt: now,
  updatedAt: now,
});

const refusedUrl = (why: string) =>
  new DomainError('invalid_request', `url must not point at ${why}`, [
    { path: 'url', message: `url must not point at ${why}` },
  ]);

/** Endpoints (owner only), the outbox that events go into, and its delivery (docs/api.md#webhooks). */
export function createWebhooksService(deps: WebhooksDeps) {
  const { repos, clock, ids, transport, sealer } = deps;
  const delivery = createWebhookDelivery(deps);

  /** Refused at create and update, and again at every delivery (the name may resolve elsewhere by then). */
  async function vetUrl(url: string): Promise<void> {
    if (deps.allowPrivateTargets) return;
    const why = await transport.vet(url, false);
    if (why) throw refusedUrl(why);
  }

  /** The event and one delivery per active endpoint that subscribes to `type`; null when none does. */
  async function outboxFor(type: WebhookEventType, data: unknown, dedupeKey: string | null) {
    const now = clock.now();
    const subscribers = (await repos.webhooks.listActive()).filter((w) => w.events.includes(type));
    if (subscribers.length === 0) return null;
    const event: WebhookEvent = { id: ids.newId(), type, dedupeKey, body: eventBody(type, now, data), createdAt: now };
    return { event, deliveries: subscribers.map((w) => newDelivery(ids, w.id, event.id, now)) };
  }

  async function existing(id: string): Promise<Webhook> {
    const webhook = await repos.webhooks.findById(id);
    if (!webhook) throw notFound();
    return webhook;
  }

  return {
    delivery,

    async list(limit: number, cursor?: string): Promise<Page<WebhookDto>> {
      const rows = await repos.webhooks.list({ limit: limit + 1, beforeId: decodeCursor(cursor) });
      return toPage(rows, limit, toWebhookDto);
    },

    async get(id: string): Promise<WebhookDto> {
      return toWebhookDto(await existing(id));
    },

    async create(input: CreateWebhookInput): Promise<CreatedWebhookDto> {
      await vetUrl(input.url);
      if ((await repos.webhooks.count()) >= MAX_WEBHOOKS)
        throw new DomainError('conflict', `At most ${MAX_WEBHOOKS} webhooks; delete one first`);
      const now = clock.now();
      const id = ids.newId();
      const secret = newWebhookSecret();
      const webhook: Webhook = {
        id,
        url: input.url,
        events: input.events,
        description: input.description ?? null,
        sealedSecret: await sealer.seal(secret, id),
        active: true,
        createdAt: now,
        updatedAt: now,
      };
      await repos.webhooks.create(webhook);
      return { webhook: toWebhookDto(webhook), secret };
    },

    /** `changed` is false for a body that names no field: nothing is written. */
    async update(id: string, input: UpdateWebhookInput): Promise<{ webhook: WebhookDto; changed: boolean }> {
      const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
      if (Object.keys(patch).length === 0) return { webhook: toWebhookDto(await existing(id)), changed: false };
      if (input.url !== undefined) await vetUrl(input.url);
      const updated = await repos.webhooks.update(id, patch, clock.now());
      if (!updated) throw notFound();
      return { webhook: toWebhookDto(updated), changed: true };
    },

    async delete(id: string): Promise<void> {
      if (!(await repos.webhooks.delete(id))) throw notFound();
    },

    async attempts(id: string, limit: number, cursor?: string): Promise<Page<WebhookAttemptDto>> {
      await existing(id);
      const rows = await repos.webhooks.listAttempts(id, { limit: limit + 1, beforeId: decodeCursor(cursor) });
      return toPage(rows, limit, toAttemptDto);
    },

    /** Sends a `webhook.test` message to this endpoint now, once, and answers what happened. */
    async test(id: string): Promise<WebhookAttemptDto> {
      const webhook = await existing(id);
      const now = clock.now();
      const event: WebhookEvent = {
        id: ids.newId(),
        type: WEBHOOK_TEST_EVENT,
        dedupeKey: null,
        body: eventBody(WEBHOOK_TEST_EVENT, now, { webhookId: webhook.id, message: 'A test of this endpoint' }),
        createdAt: now,
      };
      const pending = newDelivery(ids, webhook.id, event.id, now, 1);
      await repos.webhooks.enqueue(event, [pending]);
      const done = await delivery.attempt(pending, now);
      if (!done) throw notFound();
      return toAttemptDto(done);
    },

    /**
     * `type` for every active endpoint that subscribes to it, as part of a
     * write (ports/unit-of-work.ts): the event and its deliveries commit in
     * the write's transaction, and after the commit the first attempt goes to
     * `defer` (without one, the next webhooks job sends it). `dedupeKey`
     * makes the event one of a kind (a scheduled publication).
     */
    async inWrite(
      type: WebhookEventType,
      data: unknown,
      options: { defer?: Defer; dedupeKey?: string } = {},
    ): Promise<Consequences> {
      const outbox = await outboxFor(type, data, options.dedupeKey ?? null);
      if (!outbox) return NO_CONSEQUENCES;
      const { defer } = options;
      return {
        rows: [await repos.webhooks.outboxRows(outbox.event, outbox.deliveries)],
        afterCommit: defer ? [async () => defer(delivery.deliverNow(outbox.deliveries))] : [],
      };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
