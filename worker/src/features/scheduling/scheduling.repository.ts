import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { guarded, normalizeId, requireId, requireLimit } from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { statementsOf } from '../../adapters/db/shared/unit-of-work.js';
import type { SchedulingRepository } from './scheduling.port.js';

/**
 * The offline articles scheduled by `now`, in schedule order: what every
 * scheduler tick reads. Through `articles_status_scheduled_at_idx`, so a
 * tick costs what is due, not what is offline (the query-plan tests read
 * this statement's plan on each database).
 */
export function dueArticles(kit: SqlKit, now: Date, limit: number) {
  const { articles } = kit.tables;
  return kit.db
    .select({ id: articles.id, scheduledAt: articles.scheduledAt })
    .from(articles)
    .where(and(isNotNull(articles.scheduledAt), lte(articles.scheduledAt, now), eq(articles.status, 'offline')))
    .orderBy(asc(articles.scheduledAt), asc(articles.id))
    .limit(limit);
}

/**
 * Scheduled publication. The publish is one batch: the article's row lock,
 * then what the publication causes (rows of other features, written only
 * while the article is still offline, at the version and with the schedule
 * the scheduler read), then the publication under the same condition.
 * Racers are settled by the database: SQLite and D1 run batches one at a
 * time; on PostgreSQL and MySQL the second waits for the first's lock and
 * then finds the article published, so it writes nothing; the event's dedupe
 * key (unique to the article and time) refuses a second event all the same.
 */
export function createSchedulingRepository(kit: SqlKit): SchedulingRepository {
  const { db } = kit;
  const { articles } = kit.tables;

  // Publishing raises the article's version (its ETag), as publishing by hand
  // does: an editor's stale If-Match then sees it. Setting or cancelling a
  // schedule does not: no write takes scheduledAt from a stale copy, and an
  // editor open on the article would otherwise trip over its own schedule.
  const bumped = sql`${articles.version} + 1`;

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
      const rows = await dueArticles(kit, now, requireLimit(limit));
      return rows.map((r) => ({ id: r.id, scheduledAt: r.scheduledAt! }));
    },

    async publishDue({ articleId, scheduledAt, version, now, also }) {
      const id = requireId(articleId, 'articleId');
      const stillDue = and(
        eq(articles.id, id),
        eq(articles.status, 'offline'),
        eq(articles.scheduledAt, scheduledAt),
        eq(articles.version, version),
      );
      let results: unknown[];
      try {
        results = await kit.atomic((tx) => [
          // The row lock first: the rows and the publication below see the same article.
          tx
            .update(articles)
            .set({ version: sql`${articles.version}` })
            .where(eq(articles.id, id)),
          ...statementsOf(also, tx, { table: articles, where: stillDue }),
          tx
            .update(articles)
            .set({
              status: 'online',
              updatedAt: now,
              version: bumped,
              scheduledAt: null,
              publishedAt: sql`coalesce(${articles.publishedAt}, ${sql.param(now, articles.publishedAt)})`,
            })
            .where(stillDue),
        ]);
      } catch (err) {
        // Another run recorded this publication first (its event's dedupe key).
        if (kit.isUniqueViolation(err)) return false;
        throw err;
      }
      return kit.affectedRows(results[results.length - 1]) === 1;
    },
  };
  return guarded(kit, repo);
}
