import { DomainError, notFound } from '../../core/domain/errors.js';
import type { EdgeCache } from '../../ports/edge-cache.js';
import type { ReadCache } from '../../ports/read-cache.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import { type ActivityEvent, SYSTEM } from '../activity/activity.service.js';
import type { ArticleDto } from '../articles/article.schema.js';
import { articleEventData } from '../webhooks/webhook-events.js';
import { eventBody, newDelivery } from '../webhooks/webhooks.service.js';
import { MAX_SCHEDULE_AHEAD_DAYS, type SchedulerSummary } from './scheduling.schema.js';

export interface SchedulingDeps {
  repos: Repositories;
  clock: Clock;
  ids: IdGenerator;
  /** The article as a read answers it, whatever its status (ArticlesService.read). */
  readArticle(id: string): Promise<ArticleDto>;
  /** Writes an activity entry; never rejects (ActivityService.record). */
  record(event: ActivityEvent): Promise<void>;
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

  /** The `article.published` message of a scheduled publication, written with the publication itself. */
  function publication(article: ArticleDto, scheduledAt: Date, now: Date, webhookIds: string[]) {
    const at = now.toISOString();
    const data = articleEventData({
      ...article,
      status: 'online',
      publishedAt: article.publishedAt ?? at,
      scheduledAt: null,
      updatedAt: at,
    });
    const event = {
      id: ids.newId(),
      type: 'article.published',
      // One publication per article and time: a new schedule must lie in the future, so it never repeats.
      dedupeKey: `${article.id}@${scheduledAt.toISOString()}`,
      body: eventBody('article.published', now, data),
      createdAt: now,
    };
    return { event, deliveries: webhookIds.map((w) => newDelivery(ids, w, event.id, now)) };
  }

  async function publishOne(id: string, scheduledAt: Date, now: Date, webhookIds: string[]): Promise<boolean> {
    let article: ArticleDto;
    try {
      article = await deps.readArticle(id);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'not_found') return false;
      throw err;
    }
    const { event, deliveries } = publication(article, scheduledAt, now, webhookIds);
    if (!(await repos.scheduling.publishDue({ articleId: id, scheduledAt, now, event, deliveries }))) return false;
    await deps.record({
      actor: SYSTEM,
      action: 'article.publish',
      subject: { type: 'article', id },
      details: { title: article.title, scheduledAt: scheduledAt.toISOString() },
    });
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
      try {
        const due = await repos.scheduling.due(now, BATCH);
        if (due.length === 0) return { published, skipped: false };
        const webhookIds = (await repos.webhooks.listActive())
          .filter((w) => w.events.includes('article.published'))
          .map((w) => w.id);
        for (const { id, scheduledAt } of due) {
          if (await publishOne(id, scheduledAt, now, webhookIds)) published += 1;
        }
        return { published, skipped: false };
      } finally {
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
