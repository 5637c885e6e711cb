import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  timestamp as pgTimestamp,
  primaryKey,
  text,
  unique,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import type { ARTICLE_FORMATS, ARTICLE_STATUSES, ImageContentType, ROLES } from '../../../wire/vocabulary.js';

/** PostgreSQL schema: the same properties and result types as sqlite/sqlite.schema.ts. */

type Role = (typeof ROLES)[number];
type Format = (typeof ARTICLE_FORMATS)[number];
type Status = (typeof ARTICLE_STATUSES)[number];

const timestamp = (name: string) => pgTimestamp(name, { mode: 'date', precision: 3, withTimezone: true });

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull().unique('users_email_unique'),
    displayName: text('display_name'),
    role: text('role').$type<Role>().notNull(),
    verified: boolean('verified').notNull().default(false),
    passwordHash: text('password_hash').notNull(),
    tokenVersion: integer('token_version').notNull().default(0),
    // 1 for the owner, NULL for everyone else: see sqlite/sqlite.schema.ts.
    ownerLock: integer('owner_lock').unique('users_owner_lock_unique'),
    verificationCodeHash: text('verification_code_hash').unique('users_verification_code_hash_unique'),
    verificationExpiresAt: timestamp('verification_expires_at'),
    resetCodeHash: text('reset_code_hash').unique('users_reset_code_hash_unique'),
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

export const sites = pgTable('sites', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  baseUrl: text('base_url').notNull(),
  urlPattern: text('url_pattern'),
  previewUrl: text('preview_url'),
  description: text('description'),
  createdAt: timestamp('created_at').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

export const authors = pgTable('authors', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique('authors_slug_unique'),
  bio: text('bio'),
  avatarUrl: text('avatar_url'),
  createdAt: timestamp('created_at').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

export const articles = pgTable(
  'articles',
  {
    id: uuid('id').primaryKey(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    format: text('format').$type<Format>().notNull(),
    status: text('status').$type<Status>().notNull(),
    siteId: uuid('site_id').references(() => sites.id),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    publishedAt: timestamp('published_at'),
    seo: text('seo'),
    scheduledAt: timestamp('scheduled_at'),
    /** Raised by one on every write: the article's ETag, checked by If-Match in the write itself. */
    version: integer('version').notNull().default(1),
    slug: text('slug').notNull().default(''),
    slugScope: text('slug_scope').notNull().default(''),
    excerpt: text('excerpt'),
    html: text('html'),
    featureImageId: uuid('feature_image_id'),
  },
  (t) => [
    unique('articles_slug_scope_slug_unique').on(t.slugScope, t.slug),
    index('articles_status_id_idx').on(t.status, t.id),
    index('articles_site_id_id_idx').on(t.siteId, t.id),
    index('articles_scheduled_at_idx').on(t.scheduledAt),
  ],
);

export const articleAuthors = pgTable(
  'article_authors',
  {
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => authors.id, { onDelete: 'restrict' }),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ name: 'article_authors_pk', columns: [t.articleId, t.authorId] }),
    index('article_authors_author_id_idx').on(t.authorId),
    index('article_authors_article_id_position_idx').on(t.articleId, t.position),
  ],
);

/** Tags articles carry (features/tags/); `slug` is how the public asks for them (`?tag=`). */
export const tags = pgTable('tags', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique('tags_slug_unique'),
  createdAt: timestamp('created_at').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

/** An article's tags, in the editor's order; deleting either side removes the link. */
export const articleTags = pgTable(
  'article_tags',
  {
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    tagId: uuid('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ name: 'article_tags_pk', columns: [t.articleId, t.tagId] }),
    // The `?tag=` filter goes from the tag to its articles.
    index('article_tags_tag_id_idx').on(t.tagId),
    index('article_tags_article_id_position_idx').on(t.articleId, t.position),
  ],
);

export const images = pgTable(
  'images',
  {
    id: uuid('id').primaryKey(),
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id),
    filename: text('filename').notNull().unique('images_filename_unique'),
    contentType: text('content_type').$type<ImageContentType>().notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: timestamp('created_at').notNull(),
    /** The uploaded file's name, sanitised; null for images uploaded before names were kept. */
    originalName: text('original_name'),
    alt: text('alt').notNull().default(''),
    caption: text('caption').notNull().default(''),
  },
  (t) => [index('images_sha256_idx').on(t.sha256), index('images_article_id_id_idx').on(t.articleId, t.id)],
);

export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull().unique('invitations_email_unique'),
    role: text('role').$type<Role>().notNull(),
    codeHash: text('code_hash').notNull().unique('invitations_code_hash_unique'),
    expiresAt: timestamp('expires_at').notNull(),
    createdAt: timestamp('created_at').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('invitations_invited_by_idx').on(t.invitedBy)],
);

export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 200 }).primaryKey(),
  tatMs: bigint('tat_ms', { mode: 'number' }).notNull(),
});

export const articleImages = pgTable(
  'article_images',
  {
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    imageId: uuid('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ name: 'article_images_pk', columns: [t.articleId, t.imageId] }),
    index('article_images_image_id_idx').on(t.imageId),
  ],
);

export const purgeSettings = pgTable('purge_settings', {
  id: text('id').primaryKey(),
  enabled: boolean('enabled').notNull(),
  intervalHours: integer('interval_hours').notNull(),
  removeDuplicates: boolean('remove_duplicates').notNull(),
  removeOrphans: boolean('remove_orphans').notNull(),
  orphanGraceHours: integer('orphan_grace_hours').notNull(),
  dryRun: boolean('dry_run').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

export const purgeRuns = pgTable(
  'purge_runs',
  {
    id: uuid('id').primaryKey(),
    trigger: text('trigger').$type<'manual' | 'scheduled'>().notNull(),
    dryRun: boolean('dry_run').notNull(),
    startedAt: timestamp('started_at').notNull(),
    finishedAt: timestamp('finished_at'),
    status: text('status').$type<'running' | 'succeeded' | 'failed'>().notNull(),
    removed: text('removed').notNull(),
    bytesFreed: bigint('bytes_freed', { mode: 'number' }).notNull(),
    error: text('error'),
  },
  (t) => [index('purge_runs_trigger_started_at_idx').on(t.trigger, t.startedAt)],
);

export const leases = pgTable('leases', {
  name: varchar('name', { length: 100 }).primaryKey(),
  holder: varchar('holder', { length: 100 }).notNull(),
  expiresAt: timestamp('expires_at').notNull(),
});

export const apiKeys = pgTable('api_keys', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  prefix: text('prefix').notNull(),
  secretHash: text('secret_hash').notNull().unique('api_keys_secret_hash_unique'),
  scopes: text('scopes').notNull(),
  createdBy: uuid('created_by'),
  createdAt: timestamp('created_at').notNull(),
  lastUsedAt: timestamp('last_used_at'),
  expiresAt: timestamp('expires_at'),
});

export const activityLog = pgTable(
  'activity_log',
  {
    id: uuid('id').primaryKey(),
    at: timestamp('at').notNull(),
    actorType: text('actor_type').$type<'user' | 'apiKey' | 'system'>().notNull(),
    actorId: text('actor_id'),
    action: text('action').notNull(),
    subjectType: text('subject_type'),
    subjectId: text('subject_id'),
    ip: text('ip'),
    details: text('details'),
    bytes: integer('bytes').notNull(),
  },
  (t) => [
    index('activity_log_at_idx').on(t.at),
    index('activity_log_action_id_idx').on(t.action, t.id),
    index('activity_log_actor_id_id_idx').on(t.actorId, t.id),
  ],
);

export const activityLogUsage = pgTable('activity_log_usage', {
  id: text('id').primaryKey(),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
});

export const systemState = pgTable('system_state', {
  key: varchar('key', { length: 100 }).primaryKey(),
  value: text('value').notNull(),
  version: bigint('version', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

export const webhooks = pgTable('webhooks', {
  id: uuid('id').primaryKey(),
  url: text('url').notNull(),
  events: text('events').notNull(),
  description: text('description'),
  secret: text('secret').notNull(),
  active: boolean('active').notNull(),
  createdAt: timestamp('created_at').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey(),
    type: text('type').notNull(),
    dedupeKey: text('dedupe_key').unique('webhook_events_dedupe_key_unique'),
    body: text('body').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [index('webhook_events_created_at_idx').on(t.createdAt)],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    status: text('status').$type<'pending' | 'delivered' | 'failed'>().notNull(),
    attempts: integer('attempts').notNull(),
    maxAttempts: integer('max_attempts').notNull(),
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

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    attempt: integer('attempt').notNull(),
    at: timestamp('at').notNull(),
    outcome: text('outcome').$type<'delivered' | 'retrying' | 'failed'>().notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    nextAttemptAt: timestamp('next_attempt_at'),
  },
  (t) => [
    index('webhook_attempts_webhook_id_id_idx').on(t.webhookId, t.id),
    index('webhook_attempts_delivery_id_idx').on(t.deliveryId),
    index('webhook_attempts_at_idx').on(t.at),
  ],
);

export const previewTokens = pgTable(
  'preview_tokens',
  {
    id: uuid('id').primaryKey(),
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique('preview_tokens_token_hash_unique'),
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
export const articleDrafts = pgTable(
  'article_drafts',
  {
    articleId: uuid('article_id')
      .primaryKey()
      .references(() => articles.id, { onDelete: 'cascade' }),
    fields: text('fields').notNull(),
    version: integer('version').notNull(),
    baseVersion: integer('base_version').notNull(),
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
export const articleRevisions = pgTable(
  'article_revisions',
  {
    id: uuid('id').primaryKey(),
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at').notNull(),
    actorType: text('actor_type').notNull(),
    actorId: uuid('actor_id'),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    fields: text('fields').notNull(),
    bytes: integer('bytes').notNull(),
  },
  (t) => [index('article_revisions_article_id_id_idx').on(t.articleId, t.id)],
);

/**
 * Idempotency-Key of a create (docs/api.md#idempotency-key): claimed before
 * the create (`status` null while it runs), completed with its answer in
 * the create's own transaction, kept until `expires_at`.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: varchar('scope', { length: 80 }).notNull(),
    key: varchar('key', { length: 255 }).notNull(),
    fingerprint: varchar('fingerprint', { length: 64 }).notNull(),
    status: integer('status'),
    headers: text('headers'),
    body: text('body'),
    createdAt: timestamp('created_at').notNull(),
    expiresAt: timestamp('expires_at').notNull(),
  },
  (t) => [primaryKey({ name: 'idempotency_keys_pk', columns: [t.scope, t.key] })],
);
