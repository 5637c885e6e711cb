import { DomainError, notFound } from '../../core/domain/errors.js';
import type { EdgeCache } from '../../ports/edge-cache.js';
import type { ReadCache } from '../../ports/read-cache.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import { SYSTEM, type WriteOrigin } from '../../ports/write-effects.js';
import type { ArticleDto } from '../articles/article.schema.js';
import { type ArticleEffectPorts, consequencesOf } from '../articles/index.js';
import { MAX_SCHEDULE_AHEAD_DAYS, type SchedulerSummary } from './scheduling.schema.js';

export interface SchedulingDeps {
  repos: Repositories;
  clock: Clock;
  ids: IdGenerator;
  /** The article as a read answers it, whatever its status (ArticlesService.read). */
  readArticle(id: string): Promise<ArticleDto>;
  /** The activity entry and webhook event a publication causes, written with it (articles/article-changes.ts). */
  effects: ArticleEffectPorts;
  publicReadCache?: ReadCache;
  edgeCache?: EdgeCache;
  logError: (message: string, err: unknown) => void;
}

export const SCHEDULER_LEASE = 'article-scheduler';
/** Longer than any run should take; a crashed holder delays publication at most this long. */
export const SCHEDULER_LEASE_MS = 5 * 60 * 1000;
/** Articles one run publishes at most; the rest are due on the next tick. */
const BATCH = 100;
const DAY_MS = 24 * 3600 * 1000;

const invalidAt = (message: string) => new DomainError('invalid_request', message, [{ path: 'publishAt', message }]);

/** Scheduled publication (docs/api.md#scheduling): set, cancel, and the run that publishes what is due. */
export function createSchedulingService(deps: SchedulingDeps) {
  const { repos, clock, ids, logError } = deps;

  /**
   * Publishes one due article with its `article.published` event and
   * activity entry, in one transaction (articles/article-changes.ts, the
   * same record a route's publication makes); what follows the commit
   * goes to `by.defer`.
   */
  async function publishOne(id: string, scheduledAt: Date, now: Date, by: WriteOrigin): Promise<boolean> {
    let article: ArticleDto;
    try {
      article = await deps.readArticle(id);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'not_found') return false;
      throw err;
    }
    const at = now.toISOString();
    const published: ArticleDto = {
      ...article,
      status: 'online',
      publishedAt: article.publishedAt ?? at,
      scheduledAt: null,
      updatedAt: at,
      version: article.version + 1,
    };
    const consequences = await consequencesOf(
      deps.effects,
      { kind: 'published', article: published, details: { scheduledAt: scheduledAt.toISOString() } },
      by,
      // One publication per article and time: a new schedule must lie in the future, so it never repeats.
      // The deliveries go out with the webhooks job of the same tick.
      { dedupeKey: `${article.id}@${scheduledAt.toISOString()}`, deliverNow: false },
    );
    if (
      !(await repos.scheduling.publishDue({
        articleId: id,
        scheduledAt,
        version: article.version,
        now,
        also: consequences.rows,
      }))
    )
      return false;
    for (const step of consequences.afterCommit) by.defer(step());
    return true;
  }

  return {
    async schedule(id: string, publishAt: Date): Promise<ArticleDto> {
      const now = clock.now();
      if (publishAt.getTime() <= now.getTime()) throw invalidAt('publishAt must be in the future');
      if (publishAt.getTime() > now.getTime() + MAX_SCHEDULE_AHEAD_DAYS * DAY_MS)
        throw invalidAt(`publishAt must be within ${MAX_SCHEDULE_AHEAD_DAYS} days`);
      const result = await repos.scheduling.schedule(id, publishAt, now);
      if (result === null) throw notFound();
      if (result === 'online') throw new DomainError('conflict', 'The article is online already: unpublish it first');
      return deps.readArticle(id);
    },

    async unschedule(id: string): Promise<void> {
      if (!(await repos.scheduling.unschedule(id, clock.now()))) throw notFound();
    },

    /**
     * What the cron trigger and the Node timer run: publishes every article
     * whose time has come, as the system. One run at a time holds the lease
     * (the purge's kind); each article is published by a conditional write
     * that only one run can win, so even runs that overlap past the lease
     * publish it, and fire its `article.published`, exactly once. The
     * deliveries go out with the webhooks job of the same tick.
     */
    async publishDue(now: Date): Promise<SchedulerSummary> {
      // A read first: a tick with nothing due writes nothing, not even the lease.
      if ((await repos.scheduling.due(now, 1)).length === 0) return { published: 0, skipped: false };
      const holder = ids.newId();
      if (!(await repos.leases.acquire(SCHEDULER_LEASE, holder, now, new Date(now.getTime() + SCHEDULER_LEASE_MS))))
        return { published: 0, skipped: true };
      let published = 0;
      const afterCommit: Promise<unknown>[] = [];
      const by: WriteOrigin = { actor: SYSTEM, ip: null, defer: (work) => void afterCommit.push(work) };
      try {
        const due = await repos.scheduling.due(now, BATCH);
        if (due.length === 0) return { published, skipped: false };
        for (const { id, scheduledAt } of due) {
          if (await publishOne(id, scheduledAt, now, by)) published += 1;
        }
        return { published, skipped: false };
      } finally {
        await Promise.all(afterCommit);
        if (published > 0) {
          deps.publicReadCache?.invalidate();
          // The cron's data centre misses from now on; the others are purged (or expire).
          await deps.edgeCache
            ?.changed(null)
            .then(() => deps.edgeCache?.purge())
            .catch((err) => logError('edge cache not told of scheduled publications', err));
        }
        await repos.leases
          .release(SCHEDULER_LEASE, holder)
          .catch((err) => logError('scheduler lease not released', err));
      }
    },
  };
}

export type SchedulingService = ReturnType<typeof createSchedulingService>;
