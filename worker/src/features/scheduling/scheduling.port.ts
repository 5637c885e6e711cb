import type { Rows } from '../../ports/unit-of-work.js';

/** Scheduled publication: what the scheduler needs from storage. */

export interface DueArticle {
  id: string;
  scheduledAt: Date;
}

export interface ScheduledPublication {
  articleId: string;
  /** The `scheduledAt` the scheduler read: the article is published only if it is still this. */
  scheduledAt: Date;
  /** The version the scheduler read (its event describes the article at the next one): only at this version. */
  version: number;
  now: Date;
  /** What the publication causes (its `article.published` event, its activity entry): written only with it. */
  also: readonly Rows[];
}

export interface SchedulingRepository {
  /** Sets `scheduledAt` of an offline article: 'online' when it is online (nothing changes), null when unknown. */
  schedule(articleId: string, at: Date, now: Date): Promise<'scheduled' | 'online' | null>;
  /** Clears `scheduledAt`; false when the article is unknown. */
  unschedule(articleId: string, now: Date): Promise<boolean>;
  /** Offline articles whose time has come, soonest first. */
  due(now: Date, limit: number): Promise<DueArticle[]>;
  /**
   * Publishes one due article together with `also`, all or nothing and at
   * most once: true only for the one caller that did it. Another run that raced for the same article, or an article
   * published, unpublished, rescheduled or deleted meanwhile, gets false and
   * changes nothing.
   */
  publishDue(publication: ScheduledPublication): Promise<boolean>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    scheduling: SchedulingRepository;
  }
}
