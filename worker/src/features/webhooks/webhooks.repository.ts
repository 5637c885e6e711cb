import { and, asc, count, desc, eq, getTableColumns, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import {
  chunk,
  guarded,
  MAX_PARAMS,
  normalizeId,
  refuseNul,
  requireId,
  requireLimit,
} from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { type Guard, guardHolds, insertRow, rowsOf } from '../../adapters/db/shared/unit-of-work.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook.schema.js';
import type { Webhook, WebhookAttempt, WebhooksRepository } from './webhooks.port.js';

type WebhookRow = SqlKit['tables']['webhooks']['$inferSelect'];

const KNOWN_EVENTS: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

// An event type the code no longer knows (a downgrade) is dropped, not sent.
const parseEvents = (text: string): WebhookEventType[] =>
  text.split(',').filter((e): e is WebhookEventType => KNOWN_EVENTS.has(e));

/** A mapper that changes shape: `events` is a comma list in the row, `secret` becomes `sealedSecret`. */
const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: parseEvents(row.events),
  description: row.description,
  sealedSecret: row.secret,
  active: row.active,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

// Nine parameters per delivery row.
const DELIVERIES_PER_INSERT = Math.floor(MAX_PARAMS / 9);

export function createWebhooksRepository(kit: SqlKit): WebhooksRepository {
  const { db } = kit;
  const { webhooks, webhookEvents: events, webhookDeliveries: deliveries, webhookAttempts: attempts } = kit.tables;

  // Prepared once: the sweep asks every few seconds, and the usual answer is no.
  const pendingCount = kit.prepare(
    db.select({ n: count() }).from(deliveries).where(eq(deliveries.status, 'pending')),
    'webhook_deliveries_pending_count',
  );

  const repo: WebhooksRepository = {
    async create(w) {
      refuseNul({ url: w.url, description: w.description });
      await db.insert(webhooks).values({
        id: requireId(w.id, 'id'),
        url: w.url,
        events: w.events.join(','),
        description: w.description,
        secret: w.sealedSecret,
        active: w.active,
        createdAt: w.createdAt,
        updatedAt: w.updatedAt,
      });
    },

    async findById(id) {
      const key = normalizeId(id);
      if (key === null) return null;
      const [row] = await db.select().from(webhooks).where(eq(webhooks.id, key)).limit(1);
      return row ? toWebhook(row) : null;
    },

    async list({ limit, beforeId }) {
      const rows = await db
        .select()
        .from(webhooks)
        .where(beforeId === undefined ? undefined : lt(webhooks.id, requireId(beforeId, 'cursor')))
        .orderBy(desc(webhooks.id))
        .limit(requireLimit(limit));
      return rows.map(toWebhook);
    },

    async count() {
      const [row] = await db.select({ n: count() }).from(webhooks);
      return Number(row?.n ?? 0);
    },

    async listActive() {
      const rows = await db.select().from(webhooks).where(eq(webhooks.active, true)).orderBy(asc(webhooks.id));
      return rows.map(toWebhook);
    },

    async update(id, patch, now) {
      const key = normalizeId(id);
      if (key === null) return null;
      refuseNul({ url: patch.url, description: patch.description });
      const result = await db
        .update(webhooks)
        .set({
          ...(patch.url !== undefined && { url: patch.url }),
          ...(patch.events !== undefined && { events: patch.events.join(',') }),
          ...(patch.description !== undefined && { description: patch.description }),
          ...(patch.active !== undefined && { active: patch.active }),
          updatedAt: now,
        })
        .where(eq(webhooks.id, key));
      if (kit.affectedRows(result) === 0) return null;
      return repo.findById(key);
    },

    async delete(id) {
      const key = normalizeId(id);
      if (key === null) return false;
      return kit.affectedRows(await db.delete(webhooks).where(eq(webhooks.id, key))) > 0;
    },

    async enqueue(event, rows) {
      refuseNul({ body: event.body });
      await kit.atomic((tx) => [
        tx.insert(events).values({
          id: requireId(event.id, 'id'),
          type: event.type,
          dedupeKey: event.dedupeKey,
          body: event.body,
          createdAt: event.createdAt,
        }),
        ...chunk(rows, DELIVERIES_PER_INSERT).map((part) => tx.insert(deliveries).values(part)),
      ]);
    },

    async outboxRows(event, rows) {
      refuseNul({ body: event.body });
      const eventId = requireId(event.id, 'id');
      const eventRow = {
        id: eventId,
        type: event.type,
        dedupeKey: event.dedupeKey,
        body: event.body,
        createdAt: event.createdAt,
      };
      const ofEvent: Guard = { table: events, where: eq(events.id, eventId) };
      return rowsOf((tx, guard) => [
        insertRow(tx, events, eventRow, guard),
        // From the event's row: none when it was not inserted; none for an endpoint deleted meanwhile.
        ...rows.map((d) => {
          const webhookId = requireId(d.webhookId, 'delivery.webhookId');
          const onlyIf: Guard = {
            table: ofEvent.table,
            where: and(ofEvent.where, guardHolds(tx, { table: webhooks, where: eq(webhooks.id, webhookId) })),
          };
          return insertRow(tx, deliveries, { ...d, id: requireId(d.id, 'delivery.id'), webhookId }, onlyIf);
        }),
      ]);
    },

    async findEvent(id) {
      const key = normalizeId(id);
      if (key === null) return null;
      const [row] = await db.select().from(events).where(eq(events.id, key)).limit(1);
      return row ?? null;
    },

    async due(now, limit) {
      return db
        .select(getTableColumns(deliveries))
        .from(deliveries)
        .innerJoin(webhooks, eq(webhooks.id, deliveries.webhookId))
        .where(
          and(
            eq(deliveries.status, 'pending'),
            lte(deliveries.nextAttemptAt, now),
            lt(deliveries.attempts, deliveries.maxAttempts),
            eq(webhooks.active, true),
          ),
        )
        .orderBy(asc(deliveries.nextAttemptAt), asc(deliveries.id))
        .limit(requireLimit(limit));
    },

    async claim(id, seenAttempts, now, until) {
      const key = normalizeId(id);
      if (key === null) return false;
      const result = await db
        .update(deliveries)
        .set({ attempts: sql`${deliveries.attempts} + 1`, nextAttemptAt: until, updatedAt: now })
        .where(
          and(
            eq(deliveries.id, key),
            eq(deliveries.status, 'pending'),
            eq(deliveries.attempts, seenAttempts),
            lt(deliveries.attempts, deliveries.maxAttempts),
            lte(deliveries.nextAttemptAt, now),
          ),
        );
      return kit.affectedRows(result) === 1;
    },

    async extendClaim(id, attempt, until) {
      const key = normalizeId(id);
      if (key === null) return false;
      const result = await db
        .update(deliveries)
        .set({ nextAttemptAt: until })
        .where(and(eq(deliveries.id, key), eq(deliveries.status, 'pending'), eq(deliveries.attempts, attempt)));
      return kit.affectedRows(result) === 1;
    },

    async recordAttempt(attempt: WebhookAttempt, state) {
      refuseNul({ error: attempt.error });
      await kit.atomic((tx) => [
        tx.insert(attempts).values({ ...attempt, error: attempt.error?.slice(0, 500) ?? null }),
        // Only while no later attempt was claimed (this one outlived its claim).
        tx
          .update(deliveries)
          .set({ status: state.status, nextAttemptAt: state.nextAttemptAt, updatedAt: attempt.at })
          .where(and(eq(deliveries.id, attempt.deliveryId), eq(deliveries.attempts, attempt.attempt))),
      ]);
    },

    async anyPending() {
      const [row] = await pendingCount({});
      // count(*) is a bigint on PostgreSQL, which the driver hands over as text.
      return Number((row as { n: number | string } | undefined)?.n ?? 0) > 0;
    },

    async failSpent(now) {
      const result = await db
        .update(deliveries)
        .set({ status: 'failed', nextAttemptAt: null, updatedAt: now })
        .where(
          and(
            eq(deliveries.status, 'pending'),
            gte(deliveries.attempts, deliveries.maxAttempts),
            lte(deliveries.nextAttemptAt, now),
          ),
        );
      return kit.affectedRows(result);
    },

    async listAttempts(webhookId, { limit, beforeId }) {
      const key = normalizeId(webhookId);
      if (key === null) return [];
      const rows = await db
        .select()
        .from(attempts)
        .where(
          and(
            eq(attempts.webhookId, key),
            beforeId === undefined ? undefined : lt(attempts.id, requireId(beforeId, 'cursor')),
          ),
        )
        .orderBy(desc(attempts.id))
        .limit(requireLimit(limit));
      return rows as WebhookAttempt[];
    },

    async prune(before, limit) {
      // Ids first: MySQL allows no LIMIT in an IN subquery. The foreign keys take deliveries and attempts along.
      const old = await db
        .select({ id: events.id })
        .from(events)
        .where(lt(events.createdAt, before))
        .orderBy(asc(events.createdAt))
        .limit(requireLimit(limit));
      // Counted from the ids: D1 counts the rows the foreign keys took along as changes too.
      for (const part of chunk(
        old.map((r) => r.id),
        MAX_PARAMS,
      )) {
        await db.delete(events).where(inArray(events.id, part));
      }
      return old.length;
    },
  };
  return guarded(kit, repo);
}
