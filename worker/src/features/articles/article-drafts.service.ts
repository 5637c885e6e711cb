import { DomainError, notFound, PreconditionFailed } from '../../core/domain/errors.js';
import type { IfMatch } from '../../core/shared/entity-tags.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock } from '../../ports/runtime.js';
import { SYSTEM, type WriteOrigin } from '../../ports/write-effects.js';
import type { LinkBase } from '../../wire/links.js';
import type { ArticleDto } from './article.schema.js';
import { type DraftDto, type DraftInput, MAX_DRAFT_AHEAD_DAYS } from './article-draft.schema.js';
import { ARTICLE_FIELD_KEYS, type ArticleDraft, type ArticleFields } from './article-drafts.port.js';
import { absoluteHtml } from './article-dto.js';
import { type BodyRenderingDeps, createBodyRendering } from './article-html.js';
import type { Revisions } from './article-revisions.js';
import type { ArticlesService } from './articles.service.js';
import { toSeo } from './seo.schema.js';

export interface DraftsDeps extends BodyRenderingDeps {
  repos: Repositories;
  clock: Clock;
  articles: ArticlesService;
  revisions: Revisions;
  /** After scheduled updates were made: the read caches forget (a request's writes empty them themselves). */
  changed(): Promise<void>;
}

/** A draft's ETag: its own version, apart from the article's `"v<n>"`. */
export const draftETag = (version: number): string => `"d${version}"`;

const DRAFT_WRITE_ATTEMPTS = 4;
/** Scheduled updates one run makes at most; the rest are due on the next tick. */
const DUE_BATCH = 100;
const DAY_MS = 24 * 3600 * 1000;

/** The draft a write was to make live is gone or was written again meanwhile: nothing is written. */
class DraftGone extends DomainError {
  constructor() {
    super('not_found', 'The draft was published, discarded or changed meanwhile; nothing was written');
  }
}

export const toDraftDto = (d: ArticleDraft): DraftDto => ({
  articleId: d.articleId,
  title: d.title,
  body: d.body,
  format: d.format,
  siteId: d.siteId,
  authorIds: d.authorIds,
  tagIds: d.tagIds,
  seo: d.seo,
  slug: d.slug,
  excerpt: d.excerpt,
  featureImageId: d.featureImageId,
  version: d.version,
  baseVersion: d.baseVersion,
  updatedAt: d.updatedAt.toISOString(),
  publishAt: d.publishAt ? d.publishAt.toISOString() : null,
});

const fieldsOf = (a: ArticleFields): ArticleFields =>
  Object.fromEntries(ARTICLE_FIELD_KEYS.map((k) => [k, a[k]])) as unknown as ArticleFields;

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Drafts of articles (docs/api.md#drafts): at most one per article, written
 * apart from the live article, made live in one write of it, or dropped.
 */
export function createDrafts(deps: DraftsDeps) {
  const { repos, clock, articles } = deps;
  const bodies = createBodyRendering(deps);

  /** A stale If-Match on the draft is the 412 of its writes: the current version (0: none) and the draft. */
  function check(ifMatch: IfMatch | undefined, current: ArticleDraft | null): void {
    if (ifMatch === undefined) return;
    if (current && (ifMatch === '*' || ifMatch.includes(draftETag(current.version)))) return;
    throw new PreconditionFailed(
      current
        ? 'The draft has changed since the version named in If-Match; nothing was written'
        : 'The article has no draft; nothing was written',
      current ? draftETag(current.version) : '"d0"',
      { version: current?.version ?? 0, ...(current && { draft: toDraftDto(current) }) },
    );
  }

  /** A feature image must be one the article shows, as for the article itself. */
  async function checkFeatureImage(articleId: string, imageId: string | null): Promise<void> {
    if (imageId === null) return;
    const shown = (await repos.images.listForArticles([articleId])).get(articleId) ?? [];
    if (shown.some((i) => i.id === imageId)) return;
    const message = `featureImageId ${imageId} is not one of this article's images`;
    throw new DomainError('invalid_request', message, [{ path: 'featureImageId', message }]);
  }

  /** Writes the draft `next` makes of the current one (or of the live article), conditional on the version read. */
  async function write(
    id: string,
    ifMatch: IfMatch | undefined,
    next: (base: ArticleFields) => ArticleFields,
  ): Promise<DraftDto> {
    const article = await articles.existing(id);
    for (let attempt = 0; attempt < DRAFT_WRITE_ATTEMPTS; attempt++) {
      const current = await repos.articleDrafts.find(id);
      check(ifMatch, current);
      const base = current ? fieldsOf(current) : fieldsOf(article);
      const fields = next(base);
      if (fields.featureImageId !== base.featureImageId) await checkFeatureImage(id, fields.featureImageId);
      const draft: ArticleDraft = {
        ...fields,
        articleId: article.id,
        version: (current?.version ?? 0) + 1,
        baseVersion: current?.baseVersion ?? article.version,
        updatedAt: clock.now(),
        publishAt: current?.publishAt ?? null,
      };
      const result = await repos.articleDrafts.save(draft, current?.version ?? null);
      if (result === 'gone') throw notFound();
      if (result === 'written') return toDraftDto(draft);
    }
    throw new DomainError('conflict', 'The draft kept changing while this write was made; nothing was written');
  }

  return {
    async get(id: string): Promise<DraftDto> {
      const draft = await repos.articleDrafts.find(id);
      if (!draft) throw notFound();
      return toDraftDto(draft);
    },

    /**
     * What a preview page shows of an article (as a read answers it): its
     * pending draft when there is one, rendered now, else the live text.
     */
    async preview(live: ArticleDto, links: LinkBase) {
      const draft = await repos.articleDrafts.find(live.id);
      if (!draft) return { title: live.title, html: live.html, featureImage: live.featureImage, draft: false };
      const image = live.images.find((i) => i.id === draft.featureImageId);
      return {
        title: draft.title,
        html: absoluteHtml(await bodies.render(draft.body, draft.format), links.origin),
        featureImage: image
          ? { url: image.url, alt: image.alt, width: image.width, height: image.height, srcset: image.srcset }
          : null,
        draft: true,
      };
    },

    put(id: string, input: DraftInput, ifMatch: IfMatch | undefined): Promise<DraftDto> {
      const { seo, ...rest } = input;
      const given = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
      return write(id, ifMatch, (base) => ({ ...base, ...given, ...(seo !== undefined && { seo: toSeo(seo) }) }));
    },

    async discard(id: string, ifMatch: IfMatch | undefined): Promise<void> {
      const current = await repos.articleDrafts.find(id);
      check(ifMatch, current);
      if (!current || !(await repos.articleDrafts.delete(id))) throw notFound();
    },

    /**
     * Makes the draft live: one write of the article (its version raised,
     * its activity entry, `article.updated`, its revision while online) that
     * also drops the draft it made live; a draft written meanwhile stays.
     */
    async publish(id: string, ifMatch: IfMatch | undefined, links: LinkBase, by: WriteOrigin): Promise<ArticleDto> {
      const draft = await repos.articleDrafts.find(id);
      check(ifMatch, draft);
      if (!draft) throw notFound();
      const live = await articles.existing(id);
      const fields = fieldsOf(draft);
      const changed = ARTICLE_FIELD_KEYS.filter((k) => !same(fields[k], live[k]));
      const { article } = await articles.update(id, fields, links, by, undefined, {
        also: [repos.articleDrafts.dropRows(draft.articleId, draft.version)],
        fields: ['draft', ...changed],
        // The article's version changes with the draft's removal, so a writer that lost the race reads again
        // and finds the draft gone (or another one): it stops instead of applying the draft twice.
        stillHolds: async () => {
          if ((await repos.articleDrafts.find(id))?.version !== draft.version) throw new DraftGone();
        },
      });
      return article;
    },

    /** Sets when the scheduler makes the draft live (in the future, within the scheduling bound); 404 without a draft. */
    async schedule(id: string, publishAt: Date, ifMatch: IfMatch | undefined): Promise<DraftDto> {
      const now = clock.now().getTime();
      const invalidAt = (message: string) =>
        new DomainError('invalid_request', message, [{ path: 'publishAt', message }]);
      if (publishAt.getTime() <= now) throw invalidAt('publishAt must be in the future');
      if (publishAt.getTime() > now + MAX_DRAFT_AHEAD_DAYS * DAY_MS)
        throw invalidAt(`publishAt must be within ${MAX_DRAFT_AHEAD_DAYS} days`);
      const current = await repos.articleDrafts.find(id);
      check(ifMatch, current);
      if (!current || !(await repos.articleDrafts.schedule(id, publishAt))) throw notFound();
      return toDraftDto({ ...current, publishAt });
    },

    async unschedule(id: string): Promise<void> {
      if (!(await repos.articleDrafts.schedule(id, null))) throw notFound();
    },

    /**
     * The scheduled updates whose time has come, made live as the system,
     * each as `publish` makes a draft live (once: see `stillHolds`).
     */
    async publishDue(now: Date, links: LinkBase): Promise<{ published: number }> {
      let published = 0;
      const afterCommit: Promise<unknown>[] = [];
      const by: WriteOrigin = { actor: SYSTEM, ip: null, defer: (work) => void afterCommit.push(work) };
      try {
        for (const { articleId, version } of await repos.articleDrafts.due(now, DUE_BATCH)) {
          try {
            await this.publish(articleId, [draftETag(version)], links, by);
            published += 1;
          } catch (err) {
            // Changed or gone meanwhile: nothing to do. Anything else (a slug taken since) waits for an editor.
            if (err instanceof DraftGone || err instanceof PreconditionFailed) continue;
            if (err instanceof DomainError && err.code === 'not_found') continue;
            deps.logError(`scheduled update of article ${articleId} not made`, err);
          }
        }
      } finally {
        await Promise.all(afterCommit);
        if (published > 0) await deps.changed();
      }
      return { published };
    },

    /** Makes the draft from a revision; the live article does not change. */
    async restore(id: string, revisionId: string, ifMatch: IfMatch | undefined): Promise<DraftDto> {
      const revision = await deps.revisions.find(id, revisionId);
      if (!revision) throw notFound();
      const fields = fieldsOf(revision);
      // Its feature image may have left the article since: then the draft has none.
      const shown = (await repos.images.listForArticles([id])).get(id) ?? [];
      if (!shown.some((i) => i.id === fields.featureImageId)) fields.featureImageId = null;
      return write(id, ifMatch, () => fields);
    },
  };
}

export type Drafts = ReturnType<typeof createDrafts>;
