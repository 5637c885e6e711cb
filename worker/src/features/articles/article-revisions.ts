import { plainExcerpt } from '../../core/content/excerpt.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { Consequences } from '../../ports/unit-of-work.js';
import type { ActivityActor, WriteOrigin } from '../../ports/write-effects.js';
import type { ArticleDto } from './article.schema.js';
import { fieldsText, type RevisionDto, type RevisionListItemDto } from './article-draft.schema.js';
import type { ArticleFields, ArticleRevision, RevisionActorType, RevisionSummary } from './article-drafts.port.js';

export interface RevisionsDeps {
  repos: Repositories;
  clock: Clock;
  ids: IdGenerator;
  maxCount: number;
  maxBytes: number;
  logError: (message: string, err: unknown) => void;
}

function actorOf(actor: ActivityActor): { actorType: RevisionActorType; actorId: string | null } {
  if (actor.type === 'user') return { actorType: 'user', actorId: actor.user.id };
  if (actor.type === 'apiKey') return { actorType: 'apiKey', actorId: actor.key.id };
  return { actorType: 'system', actorId: null };
}

/**
 * The fields an answer shows. An answer's excerpt is derived from the body
 * when the author gave none; such an excerpt is not kept as the author's.
 */
export function fieldsOfAnswer(a: ArticleDto): ArticleFields {
  return {
    title: a.title,
    body: a.body,
    format: a.format,
    siteId: a.siteId,
    authorIds: a.authorIds,
    tagIds: a.tags.map((t) => t.id),
    seo: { ...a.seo },
    slug: a.slug,
    excerpt: a.excerpt === plainExcerpt(a.body, a.format) ? null : a.excerpt,
    featureImageId: a.featureImageId,
  };
}

const toListItem = (r: RevisionSummary): RevisionListItemDto => ({
  id: r.id,
  createdAt: r.createdAt.toISOString(),
  version: r.version,
  title: r.title,
  actorType: r.actorType,
  actorId: r.actorId,
  bytes: r.bytes,
});

export const toRevisionDto = (r: ArticleRevision): RevisionDto => ({
  ...toListItem(r),
  articleId: r.articleId,
  body: r.body,
  format: r.format,
  siteId: r.siteId,
  authorIds: r.authorIds,
  tagIds: r.tagIds,
  seo: r.seo,
  slug: r.slug,
  excerpt: r.excerpt,
  featureImageId: r.featureImageId,
});

/**
 * Revisions (docs/api.md#revisions): every publication and every update of
 * an online article keeps one, written in the write's own unit; the oldest
 * beyond the bounds go after the commit.
 */
export function createRevisions(deps: RevisionsDeps) {
  const { repos, clock, ids, logError } = deps;
  return {
    /** The revision of the article a write leaves, as rows of that write and its trim after the commit. */
    inWrite(article: ArticleDto, by: WriteOrigin): Consequences {
      const fields = fieldsOfAnswer(article);
      const revision: ArticleRevision = {
        ...fields,
        id: ids.newId(),
        articleId: article.id,
        createdAt: clock.now(),
        ...actorOf(by.actor),
        version: article.version,
        bytes: new TextEncoder().encode(fieldsText(fields)).byteLength,
      };
      const trim = () =>
        repos.articleRevisions
          .trim(article.id, deps.maxCount, deps.maxBytes)
          .then(() => undefined)
          .catch((err: unknown) => logError('article revisions not trimmed', err));
      return { rows: [repos.articleRevisions.rows(revision)], afterCommit: [trim] };
    },

    async list(articleId: string): Promise<RevisionListItemDto[]> {
      return (await repos.articleRevisions.list(articleId)).map(toListItem);
    },

    find: (articleId: string, id: string) => repos.articleRevisions.find(articleId, id),
  };
}

export type Revisions = ReturnType<typeof createRevisions>;
