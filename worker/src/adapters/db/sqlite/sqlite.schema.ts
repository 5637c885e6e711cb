import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, unique } from 'drizzle-orm/sqlite-core';
import type { ARTICLE_FORMATS, ARTICLE_STATUSES, ImageContentType, ROLES } from '../../../wire/vocabulary.js';

/**
 * SQLite / D1 schema. The MySQL and PostgreSQL schemas mirror it property for
 * property (drizzle/schema-parity.ts checks that), because the shared
 * repositories are typed against these tables.
 */

type Role = (typeof ROLES)[number];
type Format = (typeof ARTICLE_FORMATS)[number];
type Status = (typeof ARTICLE_STATUSES)[number];

const timestamp = (name: string) => integer(name, { mode: 'timestamp_ms' });

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull().unique('users_email_unique'),
    displayName: text('display_name'),
    role: text('role').$type<Role>().notNull(),
    verified: integer('verified', { mode: 'boolean' }).notNull().default(false),
    passwordHash: text('password_hash').notNull(),
    tokenVersion: integer('token_version').notNull().default(0),
    // 1 for the owner, NULL for everyone else: the unique index is what makes
    // "exactly one owner" a database guarantee rather than a hope.
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

export const sites = sqliteTable('sites', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  baseUrl: text('base_url').notNull(),
  description: text('description'),
  /** Where an article lives under baseUrl, e.g. `/blog/{slug}`; null: `/{slug}`. */
  urlPattern: text('url_pattern'),
  /** Where the site shows a preview link's draft, holding `{token}`; null: the API's own page. */
  previewUrl: text('preview_url'),
  createdAt: timestamp('created_at').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

export const authors = sqliteTable('authors', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique('authors_slug_unique'),
  bio: text('bio'),
  avatarUrl: text('avatar_url'),
  createdAt: timestamp('created_at').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

export const articles = sqliteTable(
  'articles',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    format: text('format').$type<Format>().notNull(),
    status: text('status').$type<Status>().notNull(),
    siteId: text('site_id').references(() => sites.id),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    publishedAt: timestamp('published_at'),
    /** The article's SEO data as JSON (null: none set); a text column so the purge can rewrite image names in it like the body. */
    seo: text('seo'),
    /** When the scheduler is to publish it (offline until then); null when not scheduled. */
    scheduledAt: timestamp('scheduled_at'),
    /** Raised by one on every write: the article's ETag, checked by If-Match in the write itself. */
    version: integer('version').notNull().default(1),
    /** `a-z0-9-`, unique per scope (the default '' only lets the migration add the column to filled tables). */
    slug: text('slug').notNull().default(''),
    /** The slug's scope: the site id, or '' for articles without a site (they share one scope; NULLs would never clash). */
    slugScope: text('slug_scope').notNull().default(''),
    /** The author's excerpt; null: derived from the body when answered. */
    excerpt: text('excerpt'),
    /** The body rendered and sanitised when it was written; null: not rendered yet (rendered when read). */
    html: text('html'),
    /** One of the article's images (no foreign key: an image that is no longer linked reads as no feature image). */
    featureImageId: text('feature_image_id'),
  },
  (t) => [
    unique('articles_slug_scope_slug_unique').on(t.slugScope, t.slug),
    index('articles_status_id_idx').on(t.status, t.id),
    index('articles_site_id_id_idx').on(t.siteId, t.id),
    index('articles_scheduled_at_idx').on(t.scheduledAt),
  ],
);

export const articleAuthors = sqliteTable(
  'article_authors',
  {
    articleId: text('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    authorId: text('author_id')
      .notNull()
      .references(() => authors.id, { onDelete: 'restrict' }),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ name: 'article_authors_pk', columns: [t.articleId, t.authorId] }),
    index('article_authors_author_id_idx').on(t.authorId),
    // Author links are read per article in position order: without this the
    // lookup sorts in a temporary b-tree on every article read.
    index('article_authors_article_id_position_idx').on(t.articleId, t.position),
  ],
);

/** Tags articles carry (features/tags/); `slug` is how the public asks for them (`?tag=`). */
export const tags = sqliteTable('tags', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique('tags_slug_unique'),
  createdAt: timestamp('created_at').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

/** An article's tags, in the editor's order; deleting either side removes the link. */
export const articleTags = sqliteTable(
  'article_tags',
  {
    articleId: text('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    tagId: text('tag_id')
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

export const images = sqliteTable(
  'images',
  {
    id: text('id').primaryKey(),
    articleId: text('article_id')
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

export const invitations = sqliteTable(
  'invitations',
  {
    id: text('id').primaryKey(),
    // Unique: one pending invitation per address.
    email: text('email').notNull().unique('invitations_email_unique'),
    role: text('role').$type<Role>().notNull(),
    codeHash: text('code_hash').notNull().unique('invitations_code_hash_unique'),
    expiresAt: timestamp('expires_at').notNull(),
    createdAt: timestamp('created_at').notNull(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
  },
  // Keyset paging by id uses the primary key; this one serves ON DELETE SET NULL.
  (t) => [index('invitations_invited_by_idx').on(t.invitedBy)],
);

/** GCRA state of the SQL rate limiter: one theoretical arrival time per `${rule}:${key}`. */
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  tatMs: integer('tat_ms').notNull(),
});

/**
 * Which articles show which image. images.article_id only says which article
 * an image was uploaded for; the links are what an article renders, so a
 * duplicate can be folded into its survivor by moving links, never by
 * copying bytes (docs/architecture.md, "Images and the link table").
 */
export const articleImages = sqliteTable(
  'article_images',
  {
    articleId: text('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    imageId: text('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ name: 'article_images_pk', columns: [t.articleId, t.imageId] }),
    index('article_images_image_id_idx').on(t.imageId),
  ],
);

/** The purge settings: one row, id 'media'. No row = the defaults. */
export const purgeSettings = sqliteTable('purge_settings', {
  id: text('id').primaryKey(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull(),
  intervalHours: integer('interval_hours').notNull(),
  removeDuplicates: integer('remove_duplicates', { mode: 'boolean' }).notNull(),
  removeOrphans: integer('remove_orphans', { mode: 'boolean' }).notNull(),
  orphanGraceHours: integer('orphan_grace_hours').notNull(),
  dryRun: integer('dry_run', { mode: 'boolean' }).notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

/** Every purge, manual or scheduled, dry or real: `removed` is the JSON of what was (or would be) removed. */
export const purgeRuns = sqliteTable(
  'purge_runs',
  {
    id: text('id').primaryKey(),
    trigger: text('trigger').$type<'manual' | 'scheduled'>().notNull(),
    dryRun: integer('dry_run', { mode: 'boolean' }).notNull(),
    startedAt: timestamp('started_at').notNull(),
    finishedAt: timestamp('finished_at'),
    status: text('status').$type<'running' | 'succeeded' | 'failed'>().notNull(),
    removed: text('removed').notNull(),
    bytesFreed: integer('bytes_freed').notNull(),
    error: text('error'),
  },
  (t) => [index('purge_runs_trigger_started_at_idx').on(t.trigger, t.startedAt)],
);

/** Named leases: whoever holds an unexpired row may do the named work (one scheduled purge at a time). */
export const leases = sqliteTable('leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: timestamp('expires_at').notNull(),
});

/** Integration keys: only the SHA-256 of the secret is stored; `scopes` is a comma list. */
export const apiKeys = sqliteTable('api_keys', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  prefix: text('prefix').notNull(),
  secretHash: text('secret_hash').notNull().unique('api_keys_secret_hash_unique'),
  scopes: text('scopes').notNull(),
  createdBy: text('created_by'),
  createdAt: timestamp('created_at').notNull(),
  lastUsedAt: timestamp('last_used_at'),
  expiresAt: timestamp('expires_at'),
});

/** The activity log where it lives in the database (Workers). `bytes`: the entry's NDJSON line length, for the size bound. */
export const activityLog = sqliteTable(
  'activity_log',
  {
    id: text('id').primaryKey(),
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

/** One row (id 'log'): the activity log's total bytes, kept with every append and trim so the bound needs no full scan. */
export const activityLogUsage = sqliteTable('activity_log_usage', {
  id: text('id').primaryKey(),
  bytes: integer('bytes').notNull(),
});

/** Small documents the service keeps about itself (Workers: the update check's state), one row per key. */
export const systemState = sqliteTable('system_state', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  /** A number that only grows for the key (the update feed's sequence): a save never lowers it. */
  version: integer('version').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

/** Webhook endpoints (owner only). `secret` is the signing secret sealed with a key derived from JWT_SECRET; `events` a comma list. */
export const webhooks = sqliteTable('webhooks', {
  id: text('id').primaryKey(),
  url: text('url').notNull(),
  events: text('events').notNull(),
  description: text('description'),
  secret: text('secret').notNull(),
  active: integer('active', { mode: 'boolean' }).notNull(),
  createdAt: timestamp('created_at').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

/**
 * The outbox: one row per event, `body` the exact JSON every endpoint is sent.
 * `dedupeKey` (unique) makes an event that must happen once (a scheduled
 * publication) impossible to record twice, whoever races to record it.
 */
export const webhookEvents = sqliteTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    dedupeKey: text('dedupe_key').unique('webhook_events_dedupe_key_unique'),
    body: text('body').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [index('webhook_events_created_at_idx').on(t.createdAt)],
);

/** One event to one endpoint: retried until delivered or `maxAttempts` is spent. */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    status: text('status').$type<'pending' | 'delivered' | 'failed'>().notNull(),
    attempts: integer('attempts').notNull(),
    maxAttempts: integer('max_attempts').notNull(),
    /** Due time while pending (a claimed attempt pushes it past its own timeout); null once final. */
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

/** Every attempt, for the deliveries list: what was sent when, and what came back. */
export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
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

/** Preview links: only the SHA-256 of each token is stored; they go with their article. */
export const previewTokens = sqliteTable(
  'preview_tokens',
  {
    id: text('id').primaryKey(),
    articleId: text('article_id')
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
export const articleDrafts = sqliteTable(
  'article_drafts',
  {
    articleId: text('article_id')
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
export const articleRevisions = sqliteTable(
  'article_revisions',
  {
    id: text('id').primaryKey(),
    articleId: text('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at').notNull(),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
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
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    status: integer('status'),
    headers: text('headers'),
    body: text('body'),
    createdAt: timestamp('created_at').notNull(),
    expiresAt: timestamp('expires_at').notNull(),
  },
  (t) => [primaryKey({ name: 'idempotency_keys_pk', columns: [t.scope, t.key] })],
);
