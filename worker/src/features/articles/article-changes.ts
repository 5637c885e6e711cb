import type { Defer } from '../../ports/runtime.js';
import { type Consequences, joinConsequences } from '../../ports/unit-of-work.js';
import type { ActivityEvent, WriteOrigin } from '../activity/activity.service.js';
import type { WebhookEventType } from '../webhooks/webhook.schema.js';
import { articleEventData } from '../webhooks/webhook-events.js';
import type { ArticleDto } from './article.schema.js';

export type { WriteOrigin };

/**
 * What an article write did: the one record its consequences (the activity
 * entry, the webhook event, what runs after the commit) are derived from,
 * whoever wrote it (a route, the scheduler).
 */
export type ArticleChange =
  | { kind: 'created' | 'published' | 'unpublished'; article: ArticleDto; details?: Record<string, unknown> }
  | { kind: 'updated'; article: ArticleDto; action: 'article.update' | 'article.seo'; details: Record<string, unknown> }
  | { kind: 'deleted'; id: string };

/** What the articles feature needs from the features a write concerns. */
export interface ArticleEffectPorts {
  activity(event: ActivityEvent): Promise<Consequences>;
  webhook(type: WebhookEventType, data: unknown, options: { defer?: Defer; dedupeKey?: string }): Promise<Consequences>;
}

const ACTIONS = {
  created: 'article.create',
  published: 'article.publish',
  unpublished: 'article.unpublish',
  deleted: 'article.delete',
} as const;

/** The activity entry and the webhook event of a change, as rows of its transaction and steps after it. */
export async function consequencesOf(
  ports: ArticleEffectPorts,
  change: ArticleChange,
  by: WriteOrigin,
  options: { dedupeKey?: string; deliverNow?: boolean } = {},
): Promise<Consequences> {
  const id = change.kind === 'deleted' ? change.id : change.article.id;
  const action = change.kind === 'updated' ? change.action : ACTIONS[change.kind];
  const details =
    change.kind === 'deleted'
      ? null
      : change.kind === 'updated'
        ? change.details
        : { title: change.article.title, ...(change.details ?? {}) };
  const data = change.kind === 'deleted' ? { id } : articleEventData(change.article);
  const [entry, event] = await Promise.all([
    ports.activity({ actor: by.actor, action, subject: { type: 'article', id }, details, ip: by.ip }),
    ports.webhook(`article.${change.kind}`, data, {
      ...(options.deliverNow !== false && { defer: by.defer }),
      ...(options.dedupeKey !== undefined && { dedupeKey: options.dedupeKey }),
    }),
  ]);
  return joinConsequences(entry, event);
}

/** Runs what follows a committed write, after the answer where the runtime allows. */
export function settle(consequences: Consequences, by: WriteOrigin): void {
  if (consequences.afterCommit.length === 0) return;
  by.defer(Promise.all(consequences.afterCommit.map((step) => step())));
}
