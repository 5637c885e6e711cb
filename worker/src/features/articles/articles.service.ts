import type { Actor } from '../../auth/actor.js';
import { canReadOffline } from '../../auth/policy.js';
import { DomainError, notFound, PreconditionFailed } from '../../core/domain/errors.js';
import type { IfMatch } from '../../core/shared/entity-tags.js';
import { decodeCursor, toPage } from '../../core/shared/pagination.js';
import type { BlobStore } from '../../ports/blob-store.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { Rows } from '../../ports/unit-of-work.js';
import type { LinkBase } from '../../wire/links.js';
import type { Page } from '../../wire/pagination.schema.js';
import { ARTICLE_SLUG_MAX, freeSlug, slugify } from '../../wire/slug.js';
import { originalKey, toImageDto } from '../media/index.js';
import type { ImageDto } from '../media/media.schema.js';
import type { ArticleDto, ArticleStatus, CreateArticleInput, UpdateArticleInput } from './article.schema.js';
import {
  type ArticleEffectPorts,
  consequencesOf,
  settle,
  versionedWriter,
  type WriteOrigin,
} from './article-changes.js';
import { toArticleDto } from './article-dto.js';
import { type BodyRenderingDeps, createBodyRendering } from './article-html.js';
import { createArticleReading } from './article-reading.js';
import { type Article, type ArticlePatch, type IfVersion, StaleArticle } from './articles.port.js';
import { type SeoDto, toSeo } from './seo.schema.js';

export interface ArticlesDeps extends BodyRenderingDeps {
  repos: Repositories;
  blobs: BlobStore;
  clock: Clock;
  ids: IdGenerator;
  /** Reports work that failed after the response was decided (e.g. blob clean-up). */
  logError: (message: string, err: unknown) => void;
  /** Removes every variant of these images; failures are logged, not thrown. */
  dropVariants: (imageIds: string[]) => Promise<void>;
  /** The activity entry and webhook event of each write, committed with it (article-changes.ts). */
  effects: ArticleEffectPorts;
}

/** The article's ETag: its version, opaque to clients. */
export const articleETag = (version: number): string => `"v${version}"`;

/** The most tags an If-Match may name: one is usual; a few cover a client holding several copies. */
const MAX_IF_MATCH_TAGS = 16;

/** The versions an If-Match names; tags that are not ours name none. */
export function versionsOf(ifMatch: IfMatch | undefined): IfVersion {
  if (ifMatch === undefined || ifMatch === '*') return undefined;
  if (ifMatch.length > MAX_IF_MATCH_TAGS) {
    throw new DomainError('invalid_request', `If-Match may name at most ${MAX_IF_MATCH_TAGS} entity tags`);
  }
  const versions = new Set<number>();
  // Nine digits at most: every version fits an INT column, so no database sees a number it cannot compare.
  for (const tag of ifMatch) {
    const m = /^"v([1-9][0-9]{0,8})"$/.exec(tag);
    if (m) versions.add(Number(m[1]));
  }
  return [...versions];
}

/** A write conditional on `If-Match`, by this caller (who may or may not be shown the current article on a 412). */
export interface Precondition {
  actor: Actor;
  ifMatch: IfMatch | undefined;
  /** The base of the links in a 412's article. */
  links: LinkBase;
}

/**
 * A generated slug can lose a race with another create of the same title;
 * after two lost races the next candidates carry a random suffix, so many
 * creates at once (a bulk import, fifty clients) still all succeed.
 */
const SLUG_ATTEMPTS = 6;
const RANDOM_SLUG_AFTER = 2;

export function createArticlesService(deps: ArticlesDeps) {
  const { repos, blobs, clock, ids, logError } = deps;
  const bodies = createBodyRendering(deps);

  const withImages = async (row: Article, links: LinkBase): Promise<ArticleDto> => {
    const article = await bodies.stored(row, repos.articles);
    const [images, tags] = await Promise.all([
      repos.images.listForArticles([article.id]),
      repos.tags.refsByIds(article.tagIds),
    ]);
    return toArticleDto(article, images.get(article.id) ?? [], tags, links);
  };

  /** The title's slug, or the first of `-2`, `-3`… free in the site's scope (or `-<random>` after lost races). */
  async function generatedSlug(title: string, siteId: string | null, random = false): Promise<string> {
    const base = slugify(title);
    if (random) {
      const suffix = `-${crypto.getRandomValues(new Uint32Array(1))[0]!.toString(36)}`;
      return `${base.slice(0, ARTICLE_SLUG_MAX - suffix.length).replace(/-+$/, '')}${suffix}`;
    }
    // A suffix is at most 11 characters (`-` and a safe integer): every candidate starts with this.
    return freeSlug(base, await repos.articles.slugsStartingWith(siteId, base.slice(0, 189).replace(/-+$/, '')));
  }

  /** A feature image must be one the article shows (null clears it). */
  async function checkFeatureImage(articleId: string, imageId: string | null | undefined): Promise<void> {
    if (imageId === undefined || imageId === null) return;
    const shown = (await repos.images.listForArticles([articleId])).get(articleId) ?? [];
    if (shown.some((i) => i.id === imageId)) return;
    const message = `featureImageId ${imageId} is not one of this article's images`;
    throw new DomainError('invalid_request', message, [{ path: 'featureImageId', message }]);
  }

  /** What a patch writes: the html kept in step with the body and format it names. */
  async function withHtml(current: Article, patch: ArticlePatch): Promise<ArticlePatch> {
    if (patch.body === undefined && patch.format === undefined) return patch;
    const body = patch.body ?? current.body;
    const format = patch.format ?? current.format;
    return { ...patch, html: await bodies.render(body, format) };
  }

  /** Unknown and hidden look the same from outside: one uniform 404. */
  async function visible(actor: Actor, id: string): Promise<Article> {
    const article = await repos.articles.findById(id);
    if (!article || (article.status === 'offline' && !canReadOffline(actor))) throw notFound();
    return article;
  }

  async function existing(id: string): Promise<Article> {
    const article = await repos.articles.findById(id);
    if (!article) throw notFound();
    return article;
  }

  const readableBy = (actor: Actor, article: Pick<ArticleDto, 'status'>): boolean =>
    article.status === 'online' || canReadOffline(actor);

  /**
   * Runs a write conditional on the precondition's If-Match. A stale one is a
   * 412: the current version, and the current article when the caller may read it.
   */
  async function conditional<T>(pre: Precondition | undefined, write: (ifVersion: IfVersion) => Promise<T>) {
    try {
      return await write(versionsOf(pre?.ifMatch));
    } catch (err) {
      if (!(err instanceof StaleArticle) || !pre) throw err;
      const article = await withImages(err.current, pre.links);
      throw new PreconditionFailed(
        'The article has changed since the version named in If-Match; nothing was written',
        articleETag(article.version),
        { version: article.version, ...(readableBy(pre.actor, article) && { article }) },
      );
    }
  }

  const writeVersion = versionedWriter<Precondition>({
    existing,
    withImages,
    effects: deps.effects,
    clock,
    // A stale If-Match is the 412 of every conditional write.
    check: (pre, current) =>
      conditional(pre, async (ifVersion) => {
        if (ifVersion !== undefined && !ifVersion.includes(current.version)) throw new StaleArticle(current);
      }),
  });

  return {
    // The content API's reads: the list, and single reads by id and by slug.
    ...createArticleReading({ repos, bodies }),
    visible,
    existing,
    /** What a write may answer: the article as it now stands, only to a caller who may read it. */
    readableBy,

    /** The article as a read answers it, whatever its status: for previews, webhooks and the scheduler. */
    async read(id: string, links: LinkBase): Promise<ArticleDto> {
      return withImages(await existing(id), links);
    },

    /** `keep` adds rows of the caller's to the create's transaction (the answer kept for an Idempotency-Key). */
    async create(
      input: CreateArticleInput,
      links: LinkBase,
      by: WriteOrigin,
      keep: (created: ArticleDto) => Promise<Rows[]> = async () => [],
    ): Promise<ArticleDto> {
      const siteId = input.siteId ?? null;
      const id = ids.newId();
      // A new article shows no image yet: only null passes.
      await checkFeatureImage(id, input.featureImageId);
      const html = await bodies.render(input.body, input.format);
      for (let attempt = 1; ; attempt++) {
        const now = clock.now();
        const article: Article = {
          id,
          title: input.title,
          body: input.body,
          format: input.format,
          status: 'offline',
          siteId,
          authorIds: input.authorIds ?? [],
          tagIds: input.tagIds ?? [],
          createdAt: now,
          updatedAt: now,
          publishedAt: null,
          scheduledAt: null,
          seo: toSeo(input.seo),
          version: 1,
          slug: input.slug ?? (await generatedSlug(input.title, siteId, attempt > RANDOM_SLUG_AFTER)),
          excerpt: input.excerpt ?? null,
          html,
          featureImageId: null,
        };
        const created = toArticleDto(article, [], await repos.tags.refsByIds(article.tagIds), links);
        const consequences = await consequencesOf(deps.effects, { kind: 'created', article: created }, by);
        try {
          await repos.articles.create(article, [...consequences.rows, ...(await keep(created))]);
          settle(consequences, by);
          return created;
        } catch (err) {
          // A generated slug taken meanwhile by another create: pick again.
          const lostRace = err instanceof DomainError && err.code === 'conflict' && err.issues?.[0]?.path === 'slug';
          if (input.slug !== undefined || !lostRace || attempt >= SLUG_ATTEMPTS) throw err;
        }
      }
    },

    /**
     * `changed` is false for a patch that names no field: nothing is written,
     * `updatedAt` and the version stay (an If-Match is still checked).
     */
    /**
     * `extra`: rows of the same unit (a draft made live drops it), the fields
     * its activity entry names, and a check run on every attempt (the draft
     * is still the one read: a retry after losing a race never applies it twice).
     */
    async update(
      id: string,
      input: Omit<UpdateArticleInput, 'seo'> & { seo?: SeoDto },
      links: LinkBase,
      by: WriteOrigin,
      pre?: Precondition,
      extra?: { also: Rows[]; fields: string[]; stillHolds?: () => Promise<void> },
    ): Promise<{ article: ArticleDto; changed: boolean }> {
      const patch: ArticlePatch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
      if (Object.keys(patch).length === 0) {
        const article = await existing(id);
        await conditional(pre, async (ifVersion) => {
          if (ifVersion !== undefined && !ifVersion.includes(article.version)) throw new StaleArticle(article);
        });
        return { article: await withImages(article, links), changed: false };
      }
      await checkFeatureImage(id, patch.featureImageId);
      const article = await writeVersion(id, pre, by, links, async (current, now) => {
        await extra?.stillHolds?.();
        const write = await withHtml(current, patch);
        return {
          next: { ...current, ...write, updatedAt: now, version: current.version + 1 },
          change: (dto) => ({
            kind: 'updated',
            action: 'article.update',
            article: dto,
            details: { title: dto.title, fields: extra?.fields ?? Object.keys(input) },
          }),
          write: (ifVersion, also) =>
            repos.articles.update(id, write, now, ifVersion, extra ? [...also, ...extra.also] : also),
        };
      });
      return { article, changed: true };
    },

    /** Replaces the article's SEO record (PUT semantics: what is left out is cleared). */
    async setSeo(id: string, seo: SeoDto, links: LinkBase, by: WriteOrigin, pre?: Precondition): Promise<ArticleDto> {
      return writeVersion(id, pre, by, links, (current, now) => ({
        next: { ...current, seo, updatedAt: now, version: current.version + 1 },
        change: (dto) => ({ kind: 'updated', action: 'article.seo', article: dto, details: { noindex: seo.noindex } }),
        write: (ifVersion, also) => repos.articles.update(id, { seo }, now, ifVersion, also),
      }));
    },

    async setStatus(
      id: string,
      status: ArticleStatus,
      links: LinkBase,
      by: WriteOrigin,
      pre?: Precondition,
    ): Promise<ArticleDto> {
      return writeVersion(id, pre, by, links, (current, now) => ({
        next: {
          ...current,
          status,
          updatedAt: now,
          version: current.version + 1,
          scheduledAt: null,
          publishedAt: status === 'online' ? (current.publishedAt ?? now) : current.publishedAt,
        },
        change: (dto) => ({ kind: status === 'online' ? 'published' : 'unpublished', article: dto }),
        write: (ifVersion, also) => repos.articles.setStatus(id, status, now, ifVersion, also),
      }));
    },

    async delete(id: string, by: WriteOrigin, pre?: Precondition): Promise<void> {
      const consequences = await consequencesOf(deps.effects, { kind: 'deleted', id }, by);
      const removed = await conditional(pre, (ifVersion) => repos.articles.delete(id, ifVersion, consequences.rows));
      if (!removed) throw notFound();
      settle(consequences, by);
      // Rows are gone first, so nothing serves these files any more; a blob
      // that fails to delete is an orphan for the purge, never a live image.
      const results = await Promise.allSettled(removed.map((img) => blobs.delete(originalKey(img.filename))));
      for (const r of results) if (r.status === 'rejected') logError('image blob left behind', r.reason);
      await deps.dropVariants(removed.map((img) => img.id));
    },

    async listImages(
      actor: Actor,
      id: string,
      page: { limit: number; cursor?: string | undefined },
      links: LinkBase,
    ): Promise<Page<ImageDto>> {
      await visible(actor, id);
      const { limit, cursor } = page;
      const rows = await repos.images.listByArticle(id, { limit: limit + 1, beforeId: decodeCursor(cursor) });
      return toPage(rows, limit, (i) => toImageDto(i, links));
    },
  };
}

export type ArticlesService = ReturnType<typeof createArticlesService>;
