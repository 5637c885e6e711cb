import type { Row } from '../../adapters/db/rows.js';
import { DomainError } from '../../core/domain/errors.js';
import type { Rows } from '../../ports/unit-of-work.js';
import type { Image } from '../media/index.js';
import type { TagRef } from '../tags/tags.schema.js';
import type { ArticleSort, ArticleStatus, SortOrder } from './article.schema.js';
import type { SeoDto } from './seo.schema.js';

/** Articles: what the core needs from storage. */

/**
 * An article: its row (the tables say what each column holds) without
 * `slugScope` (derived from `siteId`), with `seo` read from its JSON column,
 * and its author and tag ids from the link tables, in the editor's order.
 */
export type Article = Omit<Row<'articles'>, 'slugScope' | 'seo'> & {
  seo: SeoDto;
  authorIds: string[];
  tagIds: string[];
};

/** Where the previous page ended: its last article's id and sort value (a Date for the time sorts; null for createdAt, or an unpublished article). */
export interface ArticleListPosition {
  id: string;
  value: string | Date | null;
}

/** Which articles a list holds: every filter given must hold. */
export interface ArticleListFilter {
  status?: ArticleStatus;
  siteId?: string;
  /** Tags' slugs: the articles carrying every one of them. */
  tags?: string[];
  /** Articles this author is credited on. */
  authorId?: string;
  /** Articles the author with this slug is credited on. */
  authorSlug?: string;
  /** First published at or after this time. */
  publishedAfter?: Date;
  /** First published before this time. */
  publishedBefore?: Date;
  /** True: only articles waiting for a scheduled publication; false: only those without one. */
  scheduled?: boolean;
  /** Title or body contains this text, literally; ASCII letters match either case. */
  text?: string;
  /** Found through the `(slug_scope, slug)` index: with `siteId`, in that site; without, in every site. */
  slug?: string;
}

export interface ArticleListQuery extends ArticleListFilter {
  /** Default createdAt (that is, id order: ids are UUIDv7 made at creation). */
  sort?: ArticleSort;
  /** Default desc. */
  order?: SortOrder;
  /** Read the stored `html` too (left out otherwise: lists rarely want it, and it is as large as the body). */
  withHtml?: boolean;
  limit: number;
  /** Keyset for the default order: only articles with an id lower than this (ids are UUIDv7, newest first). */
  beforeId?: string;
  /** Keyset for any sort and order: only articles after this one. */
  after?: ArticleListPosition;
  /** Skip this many articles of the order first (`?page=`); not with a keyset. */
  offset?: number;
}

/**
 * An article as a read answers it, with its tags as every answer shows
 * them (in its `tagIds` order), and whether it shows any image: the read
 * asks for images only then.
 */
export interface FoundArticle {
  article: Article;
  tags: TagRef[];
  linksImages: boolean;
}

/** An article as its neighbours name it (`include=adjacent`). */
export interface ArticleLink {
  id: string;
  slug: string;
  title: string;
}

export type ArticlePatch = Partial<
  Pick<
    Article,
    | 'title'
    | 'body'
    | 'format'
    | 'siteId'
    | 'authorIds'
    | 'tagIds'
    | 'seo'
    | 'slug'
    | 'excerpt'
    | 'html'
    | 'featureImageId'
  >
>;

/**
 * The versions a write is conditional on (an If-Match): it happens only while
 * the stored version is one of them, checked in the write itself. Undefined:
 * unconditional.
 */
export type IfVersion = readonly number[] | undefined;

/** A conditional write found another version stored: nothing was written; this is the article as it stands. */
export class StaleArticle extends DomainError {
  constructor(readonly current: Article) {
    super('conflict', 'The article has changed since that version');
    this.name = 'StaleArticle';
  }
}

/**
 * Every write takes `also`: other features' rows (ports/unit-of-work.ts),
 * written in the same transaction and only when the write itself happens
 * (a write that finds the article gone or at another version writes none).
 */
export interface ArticlesRepository {
  /**
   * Unknown siteId, authorIds or tagIds → DomainError('invalid_request'), naming them; a slug taken in its
   * scope → DomainError('conflict').
   */
  create(article: Article, also?: readonly Rows[]): Promise<void>;
  /** The slugs starting with `prefix` in the scope of `siteId` (null: the articles without a site). */
  slugsStartingWith(siteId: string | null, prefix: string): Promise<Set<string>>;
  findById(id: string): Promise<Article | null>;
  /** The article as `findById` reads it (one statement), and whether it links any image: a read asks for images only then. */
  findForRead(id: string): Promise<FoundArticle | null>;
  /** Newest first (id descending) unless `sort`/`order` say otherwise; ties broken by id in the same order. */
  list(query: ArticleListQuery): Promise<Article[]>;
  /** The page as `list` reads it (one statement), each article with whether it links any image, as `findForRead` says. */
  listForRead(query: ArticleListQuery): Promise<FoundArticle[]>;
  /** How many articles `list` would give with these filters and no limit: one count over the filters' indexes. */
  count(filter: ArticleListFilter): Promise<number>;
  /**
   * The articles with this slug, as `findForRead` reads them, through the `(slug_scope, slug)` unique index:
   * in the site `siteId` (null: the articles without a site), or in every scope when undefined (one per scope at most).
   */
  findBySlug(slug: string, siteId?: string | null): Promise<FoundArticle[]>;
  /** The online articles of the article's site (or of none) published right after and right before it; null for none. */
  adjacent(article: Pick<Article, 'id' | 'siteId' | 'publishedAt'>): Promise<{
    next: ArticleLink | null;
    previous: ArticleLink | null;
  }>;
  /**
   * Returns the updated article, or null when unknown; StaleArticle when `ifVersion` does not hold; a slug taken
   * in its (new) scope → DomainError('conflict').
   */
  update(
    id: string,
    patch: ArticlePatch,
    now: Date,
    ifVersion?: IfVersion,
    also?: readonly Rows[],
  ): Promise<Article | null>;
  /**
   * Sets the status and clears `scheduledAt`; `publishedAt` is set on the first publication only. Null when unknown;
   * StaleArticle when `ifVersion` does not hold.
   */
  setStatus(
    id: string,
    status: ArticleStatus,
    now: Date,
    ifVersion?: IfVersion,
    also?: readonly Rows[],
  ): Promise<Article | null>;
  /**
   * Deletes the article, its author links and image links, and the image rows
   * no other article links to, at once. Returns those deleted image rows (whose
   * blobs the caller removes), or null when unknown. A surviving image that
   * was uploaded for this article is handed to another article that links it.
   * StaleArticle (nothing deleted) when `ifVersion` does not hold.
   */
  delete(id: string, ifVersion?: IfVersion, also?: readonly Rows[]): Promise<Image[] | null>;
  /**
   * Stores the html of a row written before writes stored it (its html null), while it is
   * still at `version`; returns what was stored (the empty string where the row has no room).
   */
  fillHtml(id: string, version: number, body: string, html: string): Promise<string>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    articles: ArticlesRepository;
  }
}
