import { describe, expect, it } from 'vitest';
import type {
  Webhook,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEvent,
} from '../../../../worker/src/features/webhooks/webhooks.port.js';
import {
  ascendingIds,
  domainError,
  freshRepositories,
  HOSTILE_STRINGS,
  newId,
  type SetupRepositories,
} from '../../../support/db-contract.js';
import { sampleWebhook } from '../../../support/webhook-samples.js';

const NOW = new Date('2026-11-26T10:00:00.000Z');
const MINUTE = 60_000;
const at = (minutes: number) => new Date(NOW.getTime() + minutes * MINUTE);

const sampleEvent = (overrides: Partial<WebhookEvent> = {}): WebhookEvent => ({
  id: newId(),
  type: 'article.published',
  dedupeKey: null,
  body: '{"type":"article.published","timestamp":"2026-11-26T10:00:00.000Z","data":{"id":"x"}}',
  createdAt: NOW,
  ...overrides,
});

const delivery = (webhookId: string, eventId: string, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: newId(),
  webhookId,
  eventId,
  status: 'pending',
  attempts: 0,
  maxAttempts: 7,
  nextAttemptAt: NOW,
  createdAt: NOW,
  updatedAt: NOW,
  ...overrides,
});

const attemptOf = (d: WebhookDelivery, overrides: Partial<WebhookAttempt> = {}): WebhookAttempt => ({
  id: newId(),
  webhookId: d.webhookId,
  deliveryId: d.id,
  eventId: d.eventId,
  eventType: 'article.published',
  attempt: d.attempts + 1,
  at: NOW,
  outcome: 'retrying',
  statusCode: 500,
  error: null,
  durationMs: 12,
  nextAttemptAt: at(1),
  ...overrides,
});

/** WebhooksRepository: endpoints, the outbox, claims and attempts, the same on D1, SQLite, MariaDB and PostgreSQL. */
export function runWebhooksRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`WebhooksRepository contract: ${name}`, () => {
    const db = freshRepositories(setup);

    async function queued(webhooks: Webhook[], event = sampleEvent()) {
      const rows = webhooks.map((w) => delivery(w.id, event.id));
      await db.repos.webhooks.enqueue(event, rows);
      return { event, rows };
    }

    it('stores endpoints and reads every field back; lists newest first; counts; updates; deletes', async () => {
      const ids = ascendingIds(3);
      const hooks = ids.map((id, i) =>
        sampleWebhook({ id, description: HOSTILE_STRINGS[i]!, active: i !== 1, events: ['image.uploaded'] }),
      );
      for (const w of hooks) await db.repos.webhooks.create(w);
      expect(await db.repos.webhooks.findById(ids[0]!)).toEqual(hooks[0]);
      expect(await db.repos.webhooks.findById(ids[0]!.toUpperCase())).toEqual(hooks[0]);
      expect(await db.repos.webhooks.findById(newId())).toBeNull();
      expect(await db.repos.webhooks.findById('nope')).toBeNull();
      expect(await db.repos.webhooks.count()).toBe(3);
      const page = await db.repos.webhooks.list({ limit: 2 });
      expect(page.map((w) => w.id)).toEqual([ids[2], ids[1]]);
      expect((await db.repos.webhooks.list({ limit: 2, beforeId: ids[1]! })).map((w) => w.id)).toEqual([ids[0]]);
      expect((await db.repos.webhooks.listActive()).map((w) => w.id)).toEqual([ids[0], ids[2]]);

      const updated = await db.repos.webhooks.update(
        ids[1]!,
        { url: 'http://other.example/', events: ['article.created', 'image.deleted'], description: null, active: true },
        at(5),
      );
      expect(updated).toEqual({
        ...hooks[1],
        url: 'http://other.example/',
        events: ['article.created', 'image.deleted'],
        description: null,
        active: true,
        updatedAt: at(5),
      });
      expect(await db.repos.webhooks.update(newId(), { active: false }, at(5))).toBeNull();
      expect(await db.repos.webhooks.delete(ids[1]!)).toBe(true);
      expect(await db.repos.webhooks.delete(ids[1]!)).toBe(false);
      expect(await db.repos.webhooks.count()).toBe(2);
    });

    it('refuses NUL characters and malformed ids', async () => {
      await expect(db.repos.webhooks.create(sampleWebhook({ url: 'https://a.example/\u0000' }))).rejects.toMatchObject(
        domainError('invalid_request'),
      );
      await expect(db.repos.webhooks.create(sampleWebhook({ id: 'nope' }))).rejects.toMatchObject(
        domainError('invalid_request'),
      );
      expect(await db.repos.webhooks.count()).toBe(0);
    });

    it('queues an event with one delivery per endpoint, all or nothing', async () => {
      const a = sampleWebhook();
      const b = sampleWebhook();
      await db.repos.webhooks.create(a);
      await db.repos.webhooks.create(b);
      const { event, rows } = await queued([a, b]);
      expect(await db.repos.webhooks.findEvent(event.id)).toEqual(event);
      expect((await db.repos.webhooks.due(NOW, 10)).map((d) => d.id).sort()).toEqual(rows.map((d) => d.id).sort());
      // A delivery to an endpoint that does not exist fails the whole write: no event without its deliveries.
      const orphan = sampleEvent();
      await expect(db.repos.webhooks.enqueue(orphan, [delivery(newId(), orphan.id)])).rejects.toThrow();
      expect(await db.repos.webhooks.findEvent(orphan.id)).toBeNull();
      // A dedupe key is unique.
      await db.repos.webhooks.enqueue(sampleEvent({ dedupeKey: 'k1' }), []);
      await expect(db.repos.webhooks.enqueue(sampleEvent({ dedupeKey: 'k1' }), [])).rejects.toThrow();
    });

    it('lists as due only pending deliveries whose time has come, with attempts left, to active endpoints', async () => {
      const live = sampleWebhook();
      const paused = sampleWebhook({ active: false });
      await db.repos.webhooks.create(live);
      await db.repos.webhooks.create(paused);
      const event = sampleEvent();
      const now = delivery(live.id, event.id, { nextAttemptAt: at(-1) });
      const later = delivery(live.id, sampleEvent().id, { nextAttemptAt: at(10) });
      const toPaused = delivery(paused.id, event.id);
      await db.repos.webhooks.enqueue(event, [now, toPaused]);
      const other = sampleEvent({ id: later.eventId });
      await db.repos.webhooks.enqueue(other, [later]);
      expect((await db.repos.webhooks.due(NOW, 10)).map((d) => d.id)).toEqual([now.id]);
      expect((await db.repos.webhooks.due(at(10), 10)).map((d) => d.id)).toEqual([now.id, later.id]);
      await db.repos.webhooks.update(paused.id, { active: true }, NOW);
      expect((await db.repos.webhooks.due(NOW, 10)).map((d) => d.id).sort()).toEqual([now.id, toPaused.id].sort());
    });

    it('lets exactly one of ten racers claim an attempt, and pushes the delivery out of reach meanwhile', async () => {
      const w = sampleWebhook();
      await db.repos.webhooks.create(w);
      const { rows } = await queued([w]);
      const d = rows[0]!;
      const wins = await Promise.all(Array.from({ length: 10 }, () => db.repos.webhooks.claim(d.id, 0, NOW, at(2))));
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect(await db.repos.webhooks.due(at(1), 10)).toEqual([]);
      const [again] = await db.repos.webhooks.due(at(2), 10);
      expect(again).toMatchObject({ id: d.id, attempts: 1, nextAttemptAt: at(2), status: 'pending' });
      // A stale view (attempts 0) no longer claims it; a fresh one does, once due.
      expect(await db.repos.webhooks.claim(d.id, 0, at(2), at(3))).toBe(false);
      expect(await db.repos.webhooks.claim(d.id, 1, at(1), at(3))).toBe(false);
      expect(await db.repos.webhooks.claim(d.id, 1, at(2), at(3))).toBe(true);
      expect(await db.repos.webhooks.claim(newId(), 0, NOW, at(3))).toBe(false);
    });

    it('keeps a claim alive while its attempt runs, and not once a later claim took over', async () => {
      const w = sampleWebhook();
      await db.repos.webhooks.create(w);
      const d = (await queued([w])).rows[0]!;
      expect(await db.repos.webhooks.claim(d.id, 0, NOW, at(1))).toBe(true);
      expect(await db.repos.webhooks.extendClaim(d.id, 1, at(3))).toBe(true);
      expect(await db.repos.webhooks.due(at(2), 10)).toEqual([]);
      // The sender died: once the claim runs out, another takes the next attempt, and the old one's renewal is refused.
      expect(await db.repos.webhooks.claim(d.id, 1, at(3), at(4))).toBe(true);
      expect(await db.repos.webhooks.extendClaim(d.id, 1, at(9))).toBe(false);
      const [again] = await db.repos.webhooks.due(at(4), 10);
      expect(again).toMatchObject({ id: d.id, attempts: 2, nextAttemptAt: at(4) });
      expect(await db.repos.webhooks.extendClaim(newId(), 1, at(9))).toBe(false);
    });

    it('records attempts with the delivery’s new state, lists them newest first, and never lets a late one undo a newer claim', async () => {
      const w = sampleWebhook();
      await db.repos.webhooks.create(w);
      const { rows } = await queued([w]);
      const d = rows[0]!;
      expect(await db.repos.webhooks.claim(d.id, 0, NOW, at(1))).toBe(true);
      const first = attemptOf(d, { error: HOSTILE_STRINGS[4]!, statusCode: null, nextAttemptAt: at(3) });
      await db.repos.webhooks.recordAttempt(first, { status: 'pending', nextAttemptAt: at(3) });
      expect((await db.repos.webhooks.due(at(3), 5))[0]).toMatchObject({ attempts: 1, nextAttemptAt: at(3) });
      expect(await db.repos.webhooks.claim(d.id, 1, at(3), at(4))).toBe(true);
      // The first attempt reports again, late: the attempt is kept, the delivery's state is the newer claim's.
      await db.repos.webhooks.recordAttempt(
        attemptOf(d, { outcome: 'delivered', nextAttemptAt: null, statusCode: 200 }),
        { status: 'delivered', nextAttemptAt: null },
      );
      expect(await db.repos.webhooks.due(at(4), 5)).toHaveLength(1);
      const second = attemptOf(
        { ...d, attempts: 1 },
        { outcome: 'delivered', statusCode: 204, nextAttemptAt: null, at: at(3) },
      );
      await db.repos.webhooks.recordAttempt(second, { status: 'delivered', nextAttemptAt: null });
      expect(await db.repos.webhooks.due(at(60), 5)).toEqual([]);
      const listed = await db.repos.webhooks.listAttempts(w.id, { limit: 10 });
      expect(listed).toHaveLength(3);
      expect(listed.at(-1)).toEqual(first);
      expect(listed[0]).toEqual(second);
      expect((await db.repos.webhooks.listAttempts(w.id, { limit: 1, beforeId: listed[0]!.id }))[0]!.id).toBe(
        listed[1]!.id,
      );
      expect(await db.repos.webhooks.listAttempts(newId(), { limit: 10 })).toEqual([]);
    });

    it('fails deliveries whose last claimed attempt never reported', async () => {
      const w = sampleWebhook();
      await db.repos.webhooks.create(w);
      const event = sampleEvent();
      const once = delivery(w.id, event.id, { maxAttempts: 1 });
      expect(await db.repos.webhooks.anyPending()).toBe(false);
      await db.repos.webhooks.enqueue(event, [once]);
      expect(await db.repos.webhooks.anyPending()).toBe(true);
      expect(await db.repos.webhooks.claim(once.id, 0, NOW, at(2))).toBe(true);
      expect(await db.repos.webhooks.failSpent(at(1))).toBe(0);
      expect(await db.repos.webhooks.anyPending()).toBe(true);
      expect(await db.repos.webhooks.failSpent(at(2))).toBe(1);
      expect(await db.repos.webhooks.anyPending()).toBe(false);
      expect(await db.repos.webhooks.claim(once.id, 1, at(3), at(4))).toBe(false);
      expect(await db.repos.webhooks.due(at(9), 5)).toEqual([]);
    });

    it('prunes old events with their deliveries and attempts, and an endpoint takes its own along', async () => {
      const w = sampleWebhook();
      const keep = sampleWebhook();
      await db.repos.webhooks.create(w);
      await db.repos.webhooks.create(keep);
      const { event, rows } = await queued([w, keep]);
      await db.repos.webhooks.claim(rows[0]!.id, 0, NOW, at(1));
      await db.repos.webhooks.recordAttempt(attemptOf(rows[0]!), { status: 'pending', nextAttemptAt: at(1) });
      const recent = sampleEvent({ createdAt: at(60) });
      await db.repos.webhooks.enqueue(recent, [delivery(keep.id, recent.id)]);
      expect(await db.repos.webhooks.prune(at(30), 100)).toBe(1);
      expect(await db.repos.webhooks.findEvent(event.id)).toBeNull();
      expect(await db.repos.webhooks.findEvent(recent.id)).not.toBeNull();
      expect(await db.repos.webhooks.listAttempts(w.id, { limit: 5 })).toEqual([]);
      expect((await db.repos.webhooks.due(at(60), 5)).map((d) => d.eventId)).toEqual([recent.id]);
      expect(await db.repos.webhooks.delete(keep.id)).toBe(true);
      expect(await db.repos.webhooks.due(at(60), 5)).toEqual([]);
    });
  });
}
