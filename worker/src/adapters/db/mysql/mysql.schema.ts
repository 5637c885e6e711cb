import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  char,
  check,
  datetime,
  index,
  int,
  longtext,
  mediumtext,
  mysqlTable,
  primaryKey,
  text,
  unique,
  varchar,
} from 'drizzle-orm/mysql-core';
import type { ARTICLE_FORMATS, ARTICLE_STATUSES, ImageContentType, ROLES } from '../../../wire/vocabulary.js';

/**
 * MySQL / MariaDB schema: the same properties and result types as
 * sqlite/sqlite.schema.ts. Character set and collation (utf8mb4_bin, so
 * strings round-trip byte for byte) come from the first, hand-written
 * migration, because drizzle cannot declare them per table.
 */

type Role = (typeof ROLES)[number];
type Format = (typeof ARTICLE_FORMATS)[number];
type Status = (typeof ARTICLE_STATUSES)[number];

const id = (name: string) => char(name, { length: 36 });
const timestamp = (name: string) => datetime(name, { mode: 'date', fsp: 3 });

export const users = mysqlTable(
  'users',
  {
    id: id('id').primaryKey(),
    email: varchar('email', { length: 254 }).notNull().unique('users_email_unique'),
    displayName: varchar('display_name', { length: 255 }),
    role: varchar('role', { length: 16 }).$type<Role>().notNull(),
    verified: boolean('verified').notNull().default(false),
    passwordHash: varchar('password_hash', { length: 512 }).notNull(),
    tokenVersion: int('token_version').notNull().default(0),
    // 1 for the owner, NULL for everyone else: see sqlite/sqlite.schema.ts.
    ownerLock: int('owner_lock').unique('users_owner_lock_unique'),
    verificationCodeHash: varchar('verification_code_hash', { length: 128 }).unique(
      'users_verification_code_hash_unique',
    ),
    verificationExpiresAt: timestamp('verification_expires_at'),
    resetCodeHash: varchar('reset_code_hash', { length: 128 }).unique('users_reset_code_hash_unique'),
    resetExpiresAt: timestamp('reset_expires_at'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  () => [
    check(
      'users_owner_lock_check',
      sql`(role = 'owner' and owner_lock = 1) or (role <> 'owner' and owner_lock is null)`,
    ),
  ],
);

export const sites = mysqlTable('sites', {
  id: id('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  baseUrl: varchar('base_url', { length: 2048 }).notNull(),
  urlPattern: varchar('url_pattern', { length: 200 }),
  previewUrl: varchar('preview_url', { length: 2048 }),
  description: text('description'),
  createdAt: timestamp('created_at').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

export const authors = mysqlTable('authors', {
  id: id('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  slug: varchar('slug', { length: 255 }).notNull().unique('authors_slug_unique'),
  bio: text('bio'),
  avatarUrl: varchar('avatar_url', { length: 2048 }),
  createdAt: timestamp('created_at').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

export const articles = mysqlTable(
  'articles',
  {
    id: id('id').primaryKey(),
    title: varchar('title', { length: 255 }).notNull(),
    // The body has no length limit in the API; longtext holds up to 4 GB.
    body: longtext('body').notNull(),
    format: varchar('format', { length: 16 }).$type<Format>().notNull(),
    status: varchar('status', { length: 16 }).$type<Status>().notNull(),
    siteId: id('site_id').references(() => sites.id),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    publishedAt: timestamp('published_at'),
    seo: text('seo'),
    scheduledAt: timestamp('scheduled_at'),
    /** Raised by one on every write: the article's ETag, checked by If-Match in the write itself. */
    version: int('version').notNull().default(1),
    slug: varchar('slug', { length: 200 }).notNull().default(''),
    slugScope: varchar('slug_scope', { length: 36 }).notNull().default(''),
    excerpt: text('excerpt'),
    html: longtext('html'),
    featureImageId: id('feature_image_id'),
  },
  (t) => [
    unique('articles_slug_scope_slug_unique').on(t.slugScope, t.slug),
    index('articles_status_id_idx').on(t.status, t.id),
    index('articles_site_id_id_idx').on(t.siteId, t.id),
    index('articles_scheduled_at_idx').on(t.scheduledAt),
  ],
);

export const articleAuthors = mysqlTable(
  'article_authors',
  {
    articleId: id('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    authorId: id('author_id')
      .notNull()
      .references(() => authors.id, { onDelete: 'restrict' }),
    position: int('position').notNull(),
  },
  (t) => [
    primaryKey({ name: 'article_authors_pk', columns: [t.articleId, t.authorId] }),
    index('article_authors_author_id_idx').on(t.authorId),
    index('article_authors_article_id_position_idx').on(t.articleId, t.position),
  ],
);

/** Tags articles carry (features/tags/); `slug` is how the public asks for them (`?tag=`). */
export const tags = mysqlTable('tags', {
  id: id('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  slug: varchar('slug', { length: 255 }).notNull().unique('tags_slug_unique'),
  createdAt: timestamp('created_at').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

/** An article's tags, in the editor's order; deleting either side removes the link. */
export const articleTags = mysqlTable(
  'article_tags',
  {
    articleId: id('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    tagId: id('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    position: int('position').notNull(),
  },
  (t) => [
    primaryKey({ name: 'article_tags_pk', columns: [t.articleId, t.tagId] }),
    // The `?tag=` filter goes from the tag to its articles.
    index('article_tags_tag_id_idx').on(t.tagId),
    index('article_tags_article_id_position_idx').on(t.articleId, t.position),
  ],
);

export const images = mysqlTable(
  'images',
  {
    id: id('id').primaryKey(),
    articleId: id('article_id')
      .notNull()
      .references(() => articles.id),
    filename: varchar('filename', { length: 255 }).notNull().unique('images_filename_unique'),
    contentType: varchar('content_type', { length: 64 }).$type<ImageContentType>().notNull(),
    bytes: int('bytes').notNull(),
    width: int('width').notNull(),
    height: int('height').notNull(),
    sha256: char('sha256', { length: 64 }).notNull(),
    createdAt: timestamp('created_at').notNull(),
    /** The uploaded file's name, sanitised; null for images uploaded before names were kept. */
    originalName: varchar('original_name', { length: 255 }),
    alt: varchar('alt', { length: 1000 }).notNull().default(''),
    caption: varchar('caption', { length: 2000 }).notNull().default(''),
  },
  (t) => [index('images_sha256_idx').on(t.sha256), index('images_article_id_id_idx').on(t.articleId, t.id)],
);

export const invitations = mysqlTable(
  'invitations',
  {
    id: id('id').primaryKey(),
    email: varchar('email', { length: 254 }).notNull().unique('invitations_email_unique'),
    role: varchar('role', { length: 16 }).$type<Role>().notNull(),
    codeHash: varchar('code_hash', { length: 128 }).notNull().unique('invitations_code_hash_unique'),
    expiresAt: timestamp('expires_at').notNull(),
    createdAt: timestamp('created_at').notNull(),
    invitedBy: id('invited_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('invitations_invited_by_idx').on(t.invitedBy)],
);

export const rateLimits = mysqlTable('rate_limits', {
  key: varchar('key', { length: 200 }).primaryKey(),
  tatMs: bigint('tat_ms', { mode: 'number' }).notNull(),
});

export const articleImages = mysqlTable(
  'article_images',
  {
    articleId: id('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    imageId: id('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ name: 'article_images_pk', columns: [t.articleId, t.imageId] }),
    index('article_images_image_id_idx').on(t.imageId),
  ],
);

export const purgeSettings = mysqlTable('purge_settings', {
  id: varchar('id', { length: 32 }).primaryKey(),
  enabled: boolean('enabled').notNull(),
  intervalHours: int('interval_hours').notNull(),
  removeDuplicates: boolean('remove_duplicates').notNull(),
  removeOrphans: boolean('remove_orphans').notNull(),
  orphanGraceHours: int('orphan_grace_hours').notNull(),
  dryRun: boolean('dry_run').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

export const purgeRuns = mysqlTable(
  'purge_runs',
  {
    id: id('id').primaryKey(),
    trigger: varchar('trigger', { length: 16 }).$type<'manual' | 'scheduled'>().notNull(),
    dryRun: boolean('dry_run').notNull(),
    startedAt: timestamp('started_at').notNull(),
    finishedAt: timestamp('finished_at'),
    status: varchar('status', { length: 16 }).$type<'running' | 'succeeded' | 'failed'>().notNull(),
    removed: longtext('removed').notNull(),
    bytesFreed: bigint('bytes_freed', { mode: 'number' }).notNull(),
    error: text('error'),
  },
  (t) => [index('purge_runs_trigger_started_at_idx').on(t.trigger, t.startedAt)],
);

export const leases = mysqlTable('leases', {
  name: varchar('name', { length: 100 }).primaryKey(),
  holder: varchar('holder', { length: 100 }).notNull(),
  expiresAt: timestamp('expires_at').notNull(),
});

export const apiKeys = mysqlTable('api_keys', {
  id: id('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  prefix: varchar('prefix', { length: 32 }).notNull(),
  secretHash: char('secret_hash', { length: 64 }).notNull().unique('api_keys_secret_hash_unique'),
  scopes: varchar('scopes', { length: 255 }).notNull(),
  createdBy: id('created_by'),
  createdAt: timestamp('created_at').notNull(),
  lastUsedAt: timestamp('last_used_at'),
  expiresAt: timestamp('expires_at'),
});

export const activityLog = mysqlTable(
  'activity_log',
  {
    id: id('id').primaryKey(),
    at: timestamp('at').notNull(),
    actorType: varchar('actor_type', { length: 16 }).$type<'user' | 'apiKey' | 'system'>().notNull(),
    actorId: varchar('actor_id', { length: 64 }),
    action: varchar('action', { length: 64 }).notNull(),
    subjectType: varchar('subject_type', { length: 32 }),
    subjectId: varchar('subject_id', { length: 64 }),
    ip: varchar('ip', { length: 64 }),
    details: longtext('details'),
    bytes: int('bytes').notNull(),
  },
  (t) => [
    index('activity_log_at_idx').on(t.at),
    index('activity_log_action_id_idx').on(t.action, t.id),
    index('activity_log_actor_id_id_idx').on(t.actorId, t.id),
  ],
);

export const activityLogUsage = mysqlTable('activity_log_usage', {
  id: varchar('id', { length: 16 }).primaryKey(),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
});

export const systemState = mysqlTable('system_state', {
  key: varchar('key', { length: 100 }).primaryKey(),
  value: longtext('value').notNull(),
  version: bigint('version', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

export const webhooks = mysqlTable('webhooks', {
  id: id('id').primaryKey(),
  url: varchar('url', { length: 2048 }).notNull(),
  events: varchar('events', { length: 255 }).notNull(),
  description: varchar('description', { length: 500 }),
  secret: varchar('secret', { length: 255 }).notNull(),
  active: boolean('active').notNull(),
  createdAt: timestamp('created_at').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

export const webhookEvents = mysqlTable(
  'webhook_events',
  {
    id: id('id').primaryKey(),
    type: varchar('type', { length: 64 }).notNull(),
    dedupeKey: varchar('dedupe_key', { length: 100 }).unique('webhook_events_dedupe_key_unique'),
    body: mediumtext('body').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [index('webhook_events_created_at_idx').on(t.createdAt)],
);

export const webhookDeliveries = mysqlTable(
  'webhook_deliveries',
  {
    id: id('id').primaryKey(),
    webhookId: id('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: id('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    status: varchar('status', { length: 16 }).$type<'pending' | 'delivered' | 'failed'>().notNull(),
    attempts: int('attempts').notNull(),
    maxAttempts: int('max_attempts').notNull(),
    nextAttemptAt: timestamp('next_attempt_at'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [
    unique('webhook_deliveries_event_id_webhook_id_unique').on(t.eventId, t.webhookId),
    index('webhook_deliveries_status_next_attempt_at_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_webhook_id_idx').on(t.webhookId),
  ],
);

export const webhookAttempts = mysqlTable(
  'webhook_attempts',
  {
    id: id('id').primaryKey(),
    webhookId: id('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    deliveryId: id('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    eventId: id('event_id').notNull(),
    eventType: varchar('event_type', { length: 64 }).notNull(),
    attempt: int('attempt').notNull(),
    at: timestamp('at').notNull(),
    outcome: varchar('outcome', { length: 16 }).$type<'delivered' | 'retrying' | 'failed'>().notNull(),
    statusCode: int('status_code'),
    error: varchar('error', { length: 500 }),
    durationMs: int('duration_ms').notNull(),
    nextAttemptAt: timestamp('next_attempt_at'),
  },
  (t) => [
    index('webhook_attempts_webhook_id_id_idx').on(t.webhookId, t.id),
    index('webhook_attempts_delivery_id_idx').on(t.deliveryId),
    index('webhook_attempts_at_idx').on(t.at),
  ],
);

export const previewTokens = mysqlTable(
  'preview_tokens',
  {
    id: id('id').primaryKey(),
    articleId: id('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    tokenHash: char('token_hash', { length: 64 }).notNull().unique('preview_tokens_token_hash_unique'),
    expiresAt: timestamp('expires_at').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [
    index('preview_tokens_article_id_idx').on(t.articleId),
    index('preview_tokens_expires_at_idx').on(t.expiresAt),
  ],
);

/**
 * An article's pending draft (docs/api.md#drafts): at most one, the fields
 * it would have as JSON (`fields`), its own `version` for If-Match, and the
 * article version it was started from.
 */
export const articleDrafts = mysqlTable(
  'article_drafts',
  {
    articleId: id('article_id')
      .primaryKey()
      .references(() => articles.id, { onDelete: 'cascade' }),
    fields: longtext('fields').notNull(),
    version: int('version').notNull(),
    baseVersion: int('base_version').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    /** When the scheduler makes it live (a scheduled update); null: not scheduled. */
    publishAt: timestamp('publish_at'),
  },
  (t) => [index('article_drafts_publish_at_idx').on(t.publishAt)],
);

/**
 * What an online article was at each publication and update, newest last
 * (ids are UUIDv7): its fields as JSON, bounded per article by count and
 * bytes (REVISIONS_MAX_COUNT, REVISIONS_MAX_BYTES).
 */
export const articleRevisions = mysqlTable(
  'article_revisions',
  {
    id: id('id').primaryKey(),
    articleId: id('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at').notNull(),
    actorType: varchar('actor_type', { length: 16 }).notNull(),
    actorId: id('actor_id'),
    version: int('version').notNull(),
    title: varchar('title', { length: 255 }).notNull(),
    fields: longtext('fields').notNull(),
    bytes: int('bytes').notNull(),
  },
  (t) => [index('article_revisions_article_id_id_idx').on(t.articleId, t.id)],
);

/**
 * Idempotency-Key of a create (docs/api.md#idempotency-key): claimed before
 * the create (`status` null while it runs), completed with its answer in
 * the create's own transaction, kept until `expires_at`.
 */
export const idempotencyKeys = mysqlTable(
  'idempotency_keys',
  {
    scope: varchar('scope', { length: 80 }).notNull(),
    key: varchar('key', { length: 255 }).notNull(),
    fingerprint: char('fingerprint', { length: 64 }).notNull(),
    status: int('status'),
    headers: text('headers'),
    body: longtext('body'),
    createdAt: timestamp('created_at').notNull(),
    expiresAt: timestamp('expires_at').notNull(),
  },
  (t) => [primaryKey({ name: 'idempotency_keys_pk', columns: [t.scope, t.key] })],
);
