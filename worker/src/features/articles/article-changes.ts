import { DomainError, notFound } from '../../core/domain/errors.js';
import type { Clock } from '../../ports/runtime.js';
import { type Consequences, joinConsequences, type Rows } from '../../ports/unit-of-work.js';
import { settle, type WriteEffects, type WriteOrigin } from '../../ports/write-effects.js';
import type { LinkBase } from '../../wire/links.js';
import { articleEventData } from '../webhooks/index.js';
import type { ArticleDto } from './article.schema.js';
import { type Article, StaleArticle } from './articles.port.js';

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
/** What the articles feature needs from the features a write concerns, and the revision it keeps itself. */
export type ArticleEffectPorts = WriteEffects & {
  /** The revision kept of an online article a write leaves (article-revisions.ts); writes of other things have none. */
  revision?(article: ArticleDto, by: WriteOrigin): Consequences;
};

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
  // Every publication, and every update of what is online, keeps a revision.
  const kept =
    ports.revision && (change.kind === 'published' || (change.kind === 'updated' && change.article.status === 'online'))
      ? [ports.revision(change.article, by)]
      : [];
  return joinConsequences(entry, event, ...kept);
}

export { settle };

/** A write lost to other writers this many times in a row: give up with a 409. */
const WRITE_ATTEMPTS = 4;

/** A write planned from the article as read: the article it leaves, what that is, and the write itself. */
export interface VersionedWrite {
  next: Article;
  change(article: ArticleDto): ArticleChange;
  write(ifVersion: readonly number[], also: readonly Rows[]): Promise<Article | null>;
}

interface WriterDeps<Pre> {
  existing(id: string): Promise<Article>;
  withImages(article: Article, links: LinkBase): Promise<ArticleDto>;
  effects: ArticleEffectPorts;
  clock: Clock;
  /** Throws the 412 when the caller's precondition does not hold for `current`. */
  check(pre: Pre | undefined, current: Article): Promise<void>;
}

/**
 * A write to the article as it stands: read it, check the caller's
 * If-Match, and write the change together with what it causes (built from
 * the article the write leaves) conditional on the version read, so the
 * event never describes another version. Lost to another writer in
 * between: read again and redo it (a stale If-Match is then a 412).
 */
export function versionedWriter<Pre>(deps: WriterDeps<Pre>) {
  return async function writeVersion(
    id: string,
    pre: Pre | undefined,
    by: WriteOrigin,
    links: LinkBase,
    plan: (current: Article, now: Date) => VersionedWrite | Promise<VersionedWrite>,
  ): Promise<ArticleDto> {
    for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
      const current = await deps.existing(id);
      await deps.check(pre, current);
      const { next, change, write } = await plan(current, deps.clock.now());
      const consequences = await consequencesOf(deps.effects, change(await deps.withImages(next, links)), by);
      let written: Article | null;
      try {
        written = await write([current.version], consequences.rows);
      } catch (err) {
        if (err instanceof StaleArticle) continue;
        throw err;
      }
      if (!written) throw notFound();
      settle(consequences, by);
      return deps.withImages(written, links);
    }
    throw new DomainError('conflict', 'The article kept changing while this write was made; nothing was written');
  };
}
