import type { Article, Image, Invitation, NewUser, User } from '../core/domain/entities.js';
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
  /** Deletes the account only while it is unverified (cancelled registration). False otherwise. */
  deleteUnverified(id: string): Promise<boolean>;
  /** Newest first (id descending), keyset paged like articles. */
  list(query: { limit: number; beforeId?: string }): Promise<User[]>;
  /** Null when unknown. */
  update(id: string, patch: { displayName?: string | null }, now: Date): Promise<User | null>;
  /** Sets the password and bumps the token version: every earlier session ends. False when unknown. */
  setPassword(id: string, passwordHash: string, now: Date): Promise<boolean>;
  /** Replaces the reset code: the previous one stops working. */
  setResetCode(userId: string, codeHash: string, expiresAt: Date): Promise<void>;
  /**
   * Single use, all or nothing: where a user holds this unexpired reset code,
   * sets the password, clears the code and bumps the token version. Returns
   * that user's id, or null (unknown, expired or already used code). Two
   * concurrent calls with one code: exactly one succeeds.
   */
  resetPassword(codeHash: string, passwordHash: string, now: Date): Promise<string | null>;
  /**
   * Moves ownership from `fromId` (must be the owner) to `toId` (must be a
   * verified account), all or nothing: the old owner becomes 'admin'.
   * False, changing nothing, when either condition does not hold.
   */
  transferOwnership(fromId: string, toId: string, now: Date): Promise<boolean>;
}

export interface InvitationsRepository {
  /** E-mail with a pending invitation, or of an existing user → DomainError('conflict'). */
  create(invitation: Invitation): Promise<void>;
  findById(id: string): Promise<Invitation | null>;
  /** Newest first, keyset paged. Expired invitations are listed too (the admin can renew them). */
  list(query: { limit: number; beforeId?: string }): Promise<Invitation[]>;
  /** New code, expiry and createdAt; the old code stops working. Null when unknown. */
  renew(id: string, codeHash: string, expiresAt: Date, now: Date): Promise<Invitation | null>;
  delete(id: string): Promise<boolean>;
  /**
   * Accepting is single use and all or nothing: where an invitation holds this
   * unexpired code, creates the verified user that `makeUser` describes (with
   * the invitation's e-mail and role) and deletes the invitation. Returns the
   * new user, or null for an unknown, expired, renewed or cancelled code.
   * 20 concurrent calls with one code create exactly one account.
   */
  accept(codeHash: string, now: Date, makeUser: (invitation: Invitation) => NewUser): Promise<User | null>;
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

export interface MediaListQuery extends ImageListQuery {
  articleId?: string;
  /** Only filenames containing this text, matched literally (`%` and `_` are not wildcards). */
  filenameContains?: string;
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
  /** The media library: every image, newest first (id descending), keyset paged, optionally filtered. */
  list(query: MediaListQuery): Promise<Image[]>;
  delete(id: string): Promise<boolean>;
}

export interface Repositories {
  users: UsersRepository;
  articles: ArticlesRepository;
  images: ImagesRepository;
  invitations: InvitationsRepository;
  /** Resolves when the database answers; throws DomainError('unavailable') otherwise. */
  ping(): Promise<void>;
}
