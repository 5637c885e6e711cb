import type { Article, Image, NewUser, User } from '../core/domain/entities.js';
import type { ArticleStatus } from '../contract/article.schema.js';

/**
 * Persistence ports. Every adapter (D1, Node SQLite, MariaDB/MySQL, PostgreSQL)
 * passes the same contract suite in test/contract/. Adapters translate driver
 * errors into DomainError: unique violations → 'conflict', an unreachable
 * database → 'unavailable'.
 */

export interface UsersRepository {
  /** Throws DomainError('conflict') when the e-mail is taken. */
  create(user: NewUser): Promise<void>;
  findById(id: string): Promise<User | null>;
  /** `email` is already lower case. */
  findByEmail(email: string): Promise<User | null>;
  hasVerifiedUser(): Promise<boolean>;
  findByVerificationCode(codeHash: string): Promise<{ user: User; expiresAt: Date } | null>;
  /** Replaces the code: the previous one stops working. */
  setVerificationCode(userId: string, codeHash: string, expiresAt: Date): Promise<void>;
  /**
   * The first verification: marks the account verified and `owner`, clears its
   * code, and deletes every other unverified account (pending registrations
   * are cancelled when registration closes) — all or nothing. Returns false,
   * changing nothing, when an owner already exists; the database enforces
   * that there is never more than one owner, so two racers cannot both win.
   */
  verifyAsFirstOwner(userId: string, now: Date): Promise<boolean>;
  /** Returns false when no such user. */
  delete(id: string): Promise<boolean>;
}

export interface ArticleListQuery {
  status?: ArticleStatus;
  siteId?: string;
  limit: number;
  /** Keyset: only articles with an id lower than this (ids are UUIDv7, newest first). */
  beforeId?: string;
}

export type ArticlePatch = Partial<Pick<Article, 'title' | 'body' | 'format' | 'siteId' | 'authorIds'>>;

export interface ArticlesRepository {
  /** Unknown siteId or authorIds → DomainError('invalid_request'). */
  create(article: Article): Promise<void>;
  findById(id: string): Promise<Article | null>;
  /** Newest first (id descending). */
  list(query: ArticleListQuery): Promise<Article[]>;
  /** Returns the updated article, or null when unknown. */
  update(id: string, patch: ArticlePatch, now: Date): Promise<Article | null>;
  /** Sets the status; `publishedAt` is set on the first publication only. Null when unknown. */
  setStatus(id: string, status: ArticleStatus, now: Date): Promise<Article | null>;
  /** Deletes the article, its image rows and author links at once. Returns the deleted image rows, or null when unknown. */
  delete(id: string): Promise<Image[] | null>;
}

export interface ImageListQuery {
  limit: number;
  /** Keyset: only images with an id lower than this, newest first. */
  beforeId?: string;
}

export interface ImagesRepository {
  /** Unknown article → DomainError('not_found'). */
  create(image: Image): Promise<void>;
  findById(id: string): Promise<Image | null>;
  /** The hot read behind /static/uploadedImages: a prepared statement. */
  findByFilename(filename: string): Promise<Image | null>;
  listByArticle(articleId: string, query: ImageListQuery): Promise<Image[]>;
  /** Images of several articles at once (oldest first per article), for article lists. */
  listForArticles(articleIds: string[]): Promise<Map<string, Image[]>>;
  delete(id: string): Promise<boolean>;
}

export interface Repositories {
  users: UsersRepository;
  articles: ArticlesRepository;
  images: ImagesRepository;
  /** Resolves when the database answers; throws DomainError('unavailable') otherwise. */
  ping(): Promise<void>;
}
