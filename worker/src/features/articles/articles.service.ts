import type { Page } from '../../contract/pagination.schema.js';
import { notFound } from '../../core/domain/errors.js';
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
import type { ArticleDto, ArticleStatus, CreateArticleInput, UpdateArticleInput } from './article.schema.js';
import type { Article } from './articles.port.js';
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

export interface ListArticlesInput {
  limit: number;
  cursor?: string | undefined;
  status?: ArticleStatus | undefined;
  siteId?: string | undefined;
}

/** Domain → wire. */
export function toArticleDto(a: Article, images: Image[]): ArticleDto {
  return {
    id: a.id,
    title: a.title,
    body: a.body,
    format: a.format,
    status: a.status,
    siteId: a.siteId,
    authorIds: a.authorIds,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
    publishedAt: a.publishedAt ? a.publishedAt.toISOString() : null,
    scheduledAt: a.scheduledAt ? a.scheduledAt.toISOString() : null,
    seo: { ...a.seo },
    images: images.map(toImageDto),
  };
}

export function createArticlesService(deps: ArticlesDeps) {
  const { repos, blobs, clock, ids, logError } = deps;

  const withImages = async (article: Article): Promise<ArticleDto> => {
    const images = await repos.images.listForArticles([article.id]);
    return toArticleDto(article, images.get(article.id) ?? []);
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

  return {
    visible,
    existing,
    /** What a write may answer: the article as it now stands, only to a caller who may read it. */
    readableBy: (actor: Actor, article: Pick<ArticleDto, 'status'>): boolean =>
      article.status === 'online' || canReadOffline(actor),

    async get(actor: Actor, id: string): Promise<ArticleDto> {
      return withImages(await visible(actor, id));
    },

    /** The article as a read answers it, whatever its status: for previews, webhooks and the scheduler. */
    async read(id: string): Promise<ArticleDto> {
      return withImages(await existing(id));
    },

    async list(actor: Actor, input: ListArticlesInput): Promise<Page<ArticleDto>> {
      // The public sees online articles only, whatever it asks for.
      const status = canReadOffline(actor) ? input.status : 'online';
      const rows = await repos.articles.list({
        status,
        siteId: input.siteId,
        limit: input.limit + 1,
        beforeId: decodeCursor(input.cursor),
      });
      const page = rows.slice(0, input.limit);
      const images = await repos.images.listForArticles(page.map((a) => a.id));
      return toPage(rows, input.limit, (a) => toArticleDto(a, images.get(a.id) ?? []));
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
        createdAt: now,
        updatedAt: now,
        publishedAt: null,
        scheduledAt: null,
        seo: toSeo(input.seo),
      };
      await repos.articles.create(article);
      return toArticleDto(article, []);
    },

    /** `changed` is false for a patch that names no field: nothing is written, `updatedAt` stays. */
    async update(id: string, input: UpdateArticleInput): Promise<{ article: ArticleDto; changed: boolean }> {
      const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
      if (Object.keys(patch).length === 0) return { article: await withImages(await existing(id)), changed: false };
      const updated = await repos.articles.update(id, patch, clock.now());
      if (!updated) throw notFound();
      return { article: await withImages(updated), changed: true };
    },

    /** Replaces the article's SEO record (PUT semantics: what is left out is cleared). */
    async setSeo(id: string, seo: SeoDto): Promise<ArticleDto> {
      const updated = await repos.articles.update(id, { seo }, clock.now());
      if (!updated) throw notFound();
      return withImages(updated);
    },

    async setStatus(id: string, status: ArticleStatus): Promise<ArticleDto> {
      const updated = await repos.articles.setStatus(id, status, clock.now());
      if (!updated) throw notFound();
      return withImages(updated);
    },

    async delete(id: string): Promise<void> {
      const removed = await repos.articles.delete(id);
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
