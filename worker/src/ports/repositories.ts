import type { ApiKey, Article, Author, Image, Invitation, NewUser, Site, User } from '../core/domain/entities.js';
import type { ArticleStatus } from '../features/articles/article.schema.js';
import type { PurgeRun, PurgeSettings } from '../features/purge/purge.entities.js';

/**
 * Persistence ports. Every adapter (D1, Node SQLite, MariaDB/MySQL, PostgreSQL)
 * passes the same contract suite in test/contract/. Adapters translate driver
 * errors into DomainError: unique violations → 'conflict', an unreachable
 * database → 'unavailable'.
 */

export interface UsersRepository {
  /** Throws DomainError('conflict') when the e-mail is taken. */
  create(user: NewUser): Promise<void>;
  /**
   * A registration: creates `user` as an unverified `admin` only while no
   * verified account exists, and returns false (nothing written) otherwise.
   * Decided by the database together with `verifyAsFirstOwner`: a
   * registrant created while a first verification is in flight is either
   * deleted by it or refused, never left behind. A taken e-mail →
   * DomainError('conflict').
   */
  createRegistrant(user: NewUser): Promise<boolean>;
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
  /**
   * Sets the password, bumps the token version (every earlier session ends)
   * and clears any outstanding reset code. False when unknown.
   */
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

export type ArticlePatch = Partial<Pick<Article, 'title' | 'body' | 'format' | 'siteId' | 'authorIds' | 'seo'>>;

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
  /**
   * Deletes the article, its author links and image links, and the image rows
   * no other article links to, at once. Returns those deleted image rows (whose
   * blobs the caller removes), or null when unknown. A surviving image that
   * was uploaded for this article is handed to another article that links it.
   */
  delete(id: string): Promise<Image[] | null>;
}

export type SitePatch = Partial<Pick<Site, 'name' | 'baseUrl' | 'description'>>;

export interface SitesRepository {
  create(site: Site): Promise<void>;
  /** Null when unknown (or the id is malformed). */
  findById(id: string): Promise<Site | null>;
  /** Newest first (id descending), keyset paged. */
  list(query: { limit: number; beforeId?: string }): Promise<Site[]>;
  /** Returns the updated site, or null when unknown. */
  update(id: string, patch: SitePatch, now: Date): Promise<Site | null>;
  /** False when unknown. A site that articles use → DomainError('conflict'); nothing is deleted. */
  delete(id: string): Promise<boolean>;
}

export type AuthorPatch = Partial<Pick<Author, 'name' | 'slug' | 'bio' | 'avatarUrl'>>;

export interface AuthorsRepository {
  /** A taken slug → DomainError('conflict'). */
  create(author: Author): Promise<void>;
  findById(id: string): Promise<Author | null>;
  /** Newest first (id descending), keyset paged. */
  list(query: { limit: number; beforeId?: string }): Promise<Author[]>;
  /** Returns the updated author, or null when unknown. A taken slug → DomainError('conflict'). */
  update(id: string, patch: AuthorPatch, now: Date): Promise<Author | null>;
  /** False when unknown. An author that articles use → DomainError('conflict'); nothing is deleted. */
  delete(id: string): Promise<boolean>;
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

/**
 * Images and the article_images links. An article shows the images it links
 * to; `Image.articleId` is the article it was uploaded for (or, once that is
 * deleted, another article that links it).
 */
export interface ImagesRepository {
  /** Inserts the row and its link to `articleId`. Unknown article → DomainError('not_found'). */
  create(image: Image): Promise<void>;
  findById(id: string): Promise<Image | null>;
  /** The hot read behind /static/uploadedImages: a prepared statement. */
  findByFilename(filename: string): Promise<Image | null>;
  /** The images the article links to, newest first. */
  listByArticle(articleId: string, query: ImageListQuery): Promise<Image[]>;
  /** Images of several articles at once (oldest first per article), for article lists. */
  listForArticles(articleIds: string[]): Promise<Map<string, Image[]>>;
  /** The media library: every image, newest first (id descending), keyset paged, optionally filtered (articleId: its links). */
  list(query: MediaListQuery): Promise<Image[]>;
  /** Deletes the row and its links. */
  delete(id: string): Promise<boolean>;
  /**
   * Folds a duplicate into its survivor, all or nothing: every article linking
   * the duplicate links the survivor, every article body and SEO record
   * (og image) naming the duplicate's filename names the survivor's, then
   * the duplicate's row (and
   * links) go. False, changing nothing, when either image is gone. The
   * caller deletes the duplicate's blobs afterwards.
   */
  mergeDuplicate(duplicateId: string, survivorId: string): Promise<boolean>;
}

export interface PurgeRepository {
  /** The stored settings, or the defaults when none were ever saved. */
  getSettings(): Promise<PurgeSettings>;
  saveSettings(settings: PurgeSettings, now: Date): Promise<void>;
  /** Records a run as it starts (status 'running'). */
  startRun(run: PurgeRun): Promise<void>;
  /** Records the outcome. */
  finishRun(run: PurgeRun): Promise<void>;
  /** Newest first (id descending), keyset paged. */
  listRuns(query: { limit: number; beforeId?: string }): Promise<PurgeRun[]>;
  /** The newest scheduled run (dry or real, whatever its outcome): the scheduler's clock. */
  lastScheduledRun(): Promise<PurgeRun | null>;
}

/**
 * Named, expiring leases: several Node instances on one database, or
 * overlapping cron invocations, agree on who does a piece of work.
 */
export interface LeasesRepository {
  /**
   * True when `holder` now holds `name` until `expiresAt`: the lease was free,
   * expired, or already this holder's. Of concurrent acquirers exactly one wins.
   */
  acquire(name: string, holder: string, now: Date, expiresAt: Date): Promise<boolean>;
  /** Gives the lease up if `holder` still holds it. */
  release(name: string, holder: string): Promise<void>;
}

export interface ApiKeysRepository {
  /** `secretHash`: SHA-256 (hex) of the whole secret; the secret itself is never stored. */
  create(key: ApiKey, secretHash: string): Promise<void>;
  /** The key holding this secret, expired or not (the caller decides); null when unknown or deleted. */
  findBySecretHash(secretHash: string): Promise<ApiKey | null>;
  /** Newest first (id descending), keyset paged. */
  list(query: { limit: number; beforeId?: string }): Promise<ApiKey[]>;
  /** False when unknown. The key is refused from the next request on. */
  delete(id: string): Promise<boolean>;
  /** Records a use. */
  touch(id: string, at: Date): Promise<void>;
}

/** Small documents the service keeps about itself, by key, each with a version that never goes down. */
export interface SystemStateRepository {
  get(key: string): Promise<{ value: string; version: number } | null>;
  /**
   * Stores the value unless the key already holds a higher version (a
   * concurrent writer that saw newer data wins). True when stored.
   */
  save(key: string, value: string, version: number, now: Date): Promise<boolean>;
}

export interface Repositories {
  users: UsersRepository;
  articles: ArticlesRepository;
  sites: SitesRepository;
  authors: AuthorsRepository;
  images: ImagesRepository;
  invitations: InvitationsRepository;
  purge: PurgeRepository;
  leases: LeasesRepository;
  apiKeys: ApiKeysRepository;
  systemState: SystemStateRepository;
  /** Resolves when the database answers; throws DomainError('unavailable') otherwise. */
  ping(): Promise<void>;
}
