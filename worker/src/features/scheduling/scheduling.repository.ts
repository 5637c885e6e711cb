import { and, asc, eq, exists, isNotNull, lte, sql } from 'drizzle-orm';
import { guarded, normalizeId, requireId, requireLimit } from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import type { SchedulingRepository } from './scheduling.port.js';

/**
 * Scheduled publication. The publish is one batch whose first statement
 * records the `article.published` event only while the article is still
 * offline with the schedule the scheduler read, under a dedupe key unique to
 * that article and time; the article is published only if that event row
 * exists. Racers are settled by the database: SQLite and D1 run batches one
 * at a time; on PostgreSQL the second insert of the same key waits for the
 * first transaction and then fails as a unique violation; on MySQL the two
 * deadlock on the article row and the loser, retried, finds it published.
 */
export function createSchedulingRepository(kit: SqlKit): SchedulingRepository {
  const { db } = kit;
  const { articles, webhookEvents: events, webhookDeliveries: deliveries } = kit.tables;

  // Publishing raises the article's version (its ETag), as publishing by hand
  // does: an editor's stale If-Match then sees it. Setting or cancelling a
  // schedule does not: no write takes scheduledAt from a stale copy, and an
  // editor open on the article would otherwise trip over its own schedule.
  const bumped = sql`${articles.version} + 1`;

  /** A bound value in a SELECT list, converted as the column it is inserted into. */
  const as = <T>(value: T, column: Parameters<typeof sql.param>[1] & { name: string }) =>
    sql`${sql.param(value, column)}`.as(column.name);

  const repo: SchedulingRepository = {
    async schedule(articleId, at, now) {
      const id = normalizeId(articleId);
      if (id === null) return null;
      const result = await db
        .update(articles)
        .set({ scheduledAt: at, updatedAt: now })
        .where(and(eq(articles.id, id), eq(articles.status, 'offline')));
      if (kit.affectedRows(result) > 0) return 'scheduled';
      const [row] = await db.select({ id: articles.id }).from(articles).where(eq(articles.id, id)).limit(1);
      return row ? 'online' : null;
    },

    async unschedule(articleId, now) {
      const id = normalizeId(articleId);
      if (id === null) return false;
      const [row] = await db
        .select({ scheduledAt: articles.scheduledAt })
        .from(articles)
        .where(eq(articles.id, id))
        .limit(1);
      if (!row) return false;
      // Nothing scheduled: nothing to write, `updatedAt` stays.
      if (row.scheduledAt === null) return true;
      await db.update(articles).set({ scheduledAt: null, updatedAt: now }).where(eq(articles.id, id));
      return true;
    },

    async due(now, limit) {
      const rows = await db
        .select({ id: articles.id, scheduledAt: articles.scheduledAt })
        .from(articles)
        .where(and(isNotNull(articles.scheduledAt), lte(articles.scheduledAt, now), eq(articles.status, 'offline')))
        .orderBy(asc(articles.scheduledAt), asc(articles.id))
        .limit(requireLimit(limit));
      return rows.map((r) => ({ id: r.id, scheduledAt: r.scheduledAt! }));
    },

    async publishDue({ articleId, scheduledAt, now, event, deliveries: rows }) {
      const id = requireId(articleId, 'articleId');
      const eventId = requireId(event.id, 'event.id');
      const stillDue = and(eq(articles.id, id), eq(articles.status, 'offline'), eq(articles.scheduledAt, scheduledAt));
      const eventRecorded = (tx: typeof db) =>
        exists(tx.select({ id: events.id }).from(events).where(eq(events.id, eventId)));
      let results: unknown[];
      try {
        results = await kit.atomic((tx) => [
          tx.insert(events).select(
            tx
              .select({
                id: as(eventId, events.id),
                type: as(event.type, events.type),
                dedupeKey: as(event.dedupeKey, events.dedupeKey),
                body: as(event.body, events.body),
                createdAt: as(event.createdAt, events.createdAt),
              })
              .from(articles)
              .where(stillDue),
          ),
          ...rows.map((d) =>
            tx.insert(deliveries).select(
              tx
                .select({
                  id: as(requireId(d.id, 'delivery.id'), deliveries.id),
                  webhookId: as(requireId(d.webhookId, 'delivery.webhookId'), deliveries.webhookId),
                  eventId: as(eventId, deliveries.eventId),
                  status: as(d.status, deliveries.status),
                  attempts: as(d.attempts, deliveries.attempts),
                  maxAttempts: as(d.maxAttempts, deliveries.maxAttempts),
                  nextAttemptAt: as(d.nextAttemptAt, deliveries.nextAttemptAt),
                  createdAt: as(d.createdAt, deliveries.createdAt),
                  updatedAt: as(d.updatedAt, deliveries.updatedAt),
                })
                .from(events)
                .where(eq(events.id, eventId)),
            ),
          ),
          tx
            .update(articles)
            .set({
              status: 'online',
              updatedAt: now,
              version: bumped,
              scheduledAt: null,
              publishedAt: sql`coalesce(${articles.publishedAt}, ${sql.param(now, articles.publishedAt)})`,
            })
            .where(and(stillDue, eventRecorded(tx))),
        ]);
      } catch (err) {
        // Another run recorded this publication first (PostgreSQL: the dedupe key).
        if (kit.isUniqueViolation(err)) return false;
        throw err;
      }
      return kit.affectedRows(results[results.length - 1]) === 1;
    },
  };
  return guarded(kit, repo);
}
