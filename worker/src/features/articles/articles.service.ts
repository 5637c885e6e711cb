import type { Page } from '../../contract/pagination.schema.js';
import { DomainError, notFound, PreconditionFailed } from '../../core/domain/errors.js';
import type { IfMatch } from '../../core/shared/entity-tags.js';
import { decodeCursor, toPage } from '../../core/shared/pagination.js';
import type { BlobStore } from '../../ports/blob-store.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { Actor } from '../accounts/actor.js';
import { canReadOffline } from '../accounts/policy.js';
import { originalKey } from '../media/blob-keys.js';
import { toImageDto } from '../media/image-dto.js';
import type { Image } from '../media/images.port.js';
import type { ImageDto } from '../media/media.schema.js';
import type { TagRef } from '../tags/tags.schema.js';
import type {
  ArticleDto,
  ArticleSort,
  ArticleStatus,
  CreateArticleInput,
  SortOrder,
  UpdateArticleInput,
} from './article.schema.js';
import { decodeArticleCursor, encodeArticleCursor } from './article-cursor.js';
import { type Article, type IfVersion, StaleArticle } from './articles.port.js';
import { type SeoDto, toSeo } from './seo.schema.js';

export interface ArticlesDeps {
  repos: Repositories;
  blobs: BlobStore;
  clock: Clock;
  ids: IdGenerator;
  /** Reports work that failed after the response was decided (e.g. blob clean-up). */
  logError: (message: string, err: unknown) => void;
  /** Removes every variant of these images; failures are logged, not thrown. */
  dropVariants: (imageIds: string[]) => Promise<void>;
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
}

export interface ListArticlesInput {
  limit: number;
  cursor?: string | undefined;
  status?: ArticleStatus | undefined;
  siteId?: string | undefined;
  tag?: string | undefined;
  authorId?: string | undefined;
  q?: string | undefined;
  sort?: ArticleSort | undefined;
  order?: SortOrder | undefined;
}

/** Domain → wire; `tags` holds every known tag (a tag deleted meanwhile is left out). */
export function toArticleDto(a: Article, images: Image[], tags: ReadonlyMap<string, TagRef>): ArticleDto {
  return {
    id: a.id,
    title: a.title,
    body: a.body,
    format: a.format,
    status: a.status,
    siteId: a.siteId,
    authorIds: a.authorIds,
    tags: a.tagIds.flatMap((id) => tags.get(id) ?? []),
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
    publishedAt: a.publishedAt ? a.publishedAt.toISOString() : null,
    scheduledAt: a.scheduledAt ? a.scheduledAt.toISOString() : null,
    seo: { ...a.seo },
    version: a.version,
    images: images.map(toImageDto),
  };
}

export function createArticlesService(deps: ArticlesDeps) {
  const { repos, blobs, clock, ids, logError } = deps;

  const withImages = async (article: Article): Promise<ArticleDto> => {
    const [images, tags] = await Promise.all([
      repos.images.listForArticles([article.id]),
      repos.tags.refsByIds(article.tagIds),
    ]);
    return toArticleDto(article, images.get(article.id) ?? [], tags);
  };

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
      const article = await withImages(err.current);
      throw new PreconditionFailed(
        'The article has changed since the version named in If-Match; nothing was written',
        articleETag(article.version),
        { version: article.version, ...(readableBy(pre.actor, article) && { article }) },
      );
    }
  }

  return {
    visible,
    existing,
    /** What a write may answer: the article as it now stands, only to a caller who may read it. */
    readableBy,

    async get(actor: Actor, id: string): Promise<ArticleDto> {
      // The images are asked for beside the article, not after it: on a
      // server database the round trips overlap (docs/benchmarks.md). They
      // are used only once the article is known to be visible to the caller.
      const [article, images, tags] = await Promise.all([
        visible(actor, id),
        repos.images.listForArticles([id]),
        repos.tags.refsOfArticle(id),
      ]);
      return toArticleDto(article, images.get(id) ?? [], new Map(tags.map((t) => [t.id, t])));
    },

    /** The article as a read answers it, whatever its status: for previews, webhooks and the scheduler. */
    async read(id: string): Promise<ArticleDto> {
      return withImages(await existing(id));
    },

    async list(actor: Actor, input: ListArticlesInput): Promise<Page<ArticleDto>> {
      // The public sees online articles only, whatever it asks for.
      const status = canReadOffline(actor) ? input.status : 'online';
      const sort = input.sort ?? 'createdAt';
      const order = input.order ?? 'desc';
      const rows = await repos.articles.list({
        status,
        siteId: input.siteId,
        tag: input.tag,
        authorId: input.authorId,
        text: input.q,
        sort,
        order,
        limit: input.limit + 1,
        after: decodeArticleCursor(input.cursor, sort, order),
      });
      const page = rows.slice(0, input.limit);
      // One read for the page's images, one for its tags: never one per article.
      const [images, tags] = await Promise.all([
        repos.images.listForArticles(page.map((a) => a.id)),
        repos.tags.refsByIds(page.flatMap((a) => a.tagIds)),
      ]);
      const last = page[page.length - 1];
      return {
        items: page.map((a) => toArticleDto(a, images.get(a.id) ?? [], tags)),
        nextCursor: rows.length > input.limit && last ? encodeArticleCursor(sort, order, last) : null,
      };
    },

    async create(input: CreateArticleInput): Promise<ArticleDto> {
      const now = clock.now();
      const article: Article = {
        id: ids.newId(),
        title: input.title,
        body: input.body,
        format: input.format,
        status: 'offline',
        siteId: input.siteId ?? null,
        authorIds: input.authorIds ?? [],
        tagIds: input.tagIds ?? [],
        createdAt: now,
        updatedAt: now,
        publishedAt: null,
        scheduledAt: null,
        seo: toSeo(input.seo),
        version: 1,
      };
      await repos.articles.create(article);
      return toArticleDto(article, [], await repos.tags.refsByIds(article.tagIds));
    },

    /** `changed` is false for a patch that names no field: nothing is written, `updatedAt` stays. */
    /**
     * `changed` is false for a patch that names no field: nothing is written,
     * `updatedAt` and the version stay (an If-Match is still checked).
     */
    async update(
      id: string,
      input: UpdateArticleInput,
      pre?: Precondition,
    ): Promise<{ article: ArticleDto; changed: boolean }> {
      const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
      if (Object.keys(patch).length === 0) {
        const article = await existing(id);
        await conditional(pre, async (ifVersion) => {
          if (ifVersion !== undefined && !ifVersion.includes(article.version)) throw new StaleArticle(article);
        });
        return { article: await withImages(article), changed: false };
      }
      const updated = await conditional(pre, (ifVersion) => repos.articles.update(id, patch, clock.now(), ifVersion));
      if (!updated) throw notFound();
      return { article: await withImages(updated), changed: true };
    },

    /** Replaces the article's SEO record (PUT semantics: what is left out is cleared). */
    async setSeo(id: string, seo: SeoDto, pre?: Precondition): Promise<ArticleDto> {
      const updated = await conditional(pre, (ifVersion) => repos.articles.update(id, { seo }, clock.now(), ifVersion));
      if (!updated) throw notFound();
      return withImages(updated);
    },

    async setStatus(id: string, status: ArticleStatus, pre?: Precondition): Promise<ArticleDto> {
      const updated = await conditional(pre, (ifVersion) =>
        repos.articles.setStatus(id, status, clock.now(), ifVersion),
      );
      if (!updated) throw notFound();
      return withImages(updated);
    },

    async delete(id: string, pre?: Precondition): Promise<void> {
      const removed = await conditional(pre, (ifVersion) => repos.articles.delete(id, ifVersion));
      if (!removed) throw notFound();
      // Rows are gone first, so nothing serves these files any more; a blob
      // that fails to delete is an orphan for the purge, never a live image.
      const results = await Promise.allSettled(removed.map((img) => blobs.delete(originalKey(img.filename))));
      for (const r of results) if (r.status === 'rejected') logError('image blob left behind', r.reason);
      await deps.dropVariants(removed.map((img) => img.id));
    },

    async listImages(actor: Actor, id: string, limit: number, cursor?: string): Promise<Page<ImageDto>> {
      await visible(actor, id);
      const rows = await repos.images.listByArticle(id, { limit: limit + 1, beforeId: decodeCursor(cursor) });
      return toPage(rows, limit, toImageDto);
    },
  };
}

export type ArticlesService = ReturnType<typeof createArticlesService>;
