import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, unique } from 'drizzle-orm/sqlite-core';
import type { ROLES } from '../../../wire/vocabulary.js';
import { bool, createdAt, id, ref, timestamp, timestamps, uuid } from './sqlite.columns.js';

/**
 * The tables the service keeps about who may act and what it does on its own
 * on SQLite / D1: users, invitations and API keys; rate limits, leases and
 * idempotency keys; the purge, the activity log, the system state and the
 * webhook outbox. Mirrored in MySQL and PostgreSQL like sqlite.content.tables.ts.
 */

type Role = (typeof ROLES)[number];

export const users = sqliteTable(
  'users',
  {
    id: id(),
    email: text('email').notNull().unique('users_email_unique'),
    displayName: text('display_name'),
    role: text('role').$type<Role>().notNull(),
    verified: bool('verified').notNull().default(false),
    passwordHash: text('password_hash').notNull(),
    tokenVersion: integer('token_version').notNull().default(0),
    // 1 for the owner, NULL for everyone else: the unique index is what makes
    // "exactly one owner" a database guarantee rather than a hope.
    ownerLock: integer('owner_lock').unique('users_owner_lock_unique'),
    verificationCodeHash: text('verification_code_hash').unique('users_verification_code_hash_unique'),
    verificationExpiresAt: timestamp('verification_expires_at'),
    resetCodeHash: text('reset_code_hash').unique('users_reset_code_hash_unique'),
    resetExpiresAt: timestamp('reset_expires_at'),
    ...timestamps(),
  },
  () => [
    check(
      'users_owner_lock_check',
      sql`(role = 'owner' and owner_lock = 1) or (role <> 'owner' and owner_lock is null)`,
    ),
  ],
);

export const invitations = sqliteTable(
  'invitations',
  {
    id: id(),
    // Unique: one pending invitation per address.
    email: text('email').notNull().unique('invitations_email_unique'),
    role: text('role').$type<Role>().notNull(),
    codeHash: text('code_hash').notNull().unique('invitations_code_hash_unique'),
    expiresAt: timestamp('expires_at').notNull(),
    createdAt: createdAt(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
  },
  // Keyset paging by id uses the primary key; this one serves ON DELETE SET NULL.
  (t) => [index('invitations_invited_by_idx').on(t.invitedBy)],
);

/** Integration keys: only the SHA-256 of the secret is stored; `scopes` is a comma list. */
export const apiKeys = sqliteTable('api_keys', {
  id: id(),
  name: text('name').notNull(),
  prefix: text('prefix').notNull(),
  secretHash: text('secret_hash').notNull().unique('api_keys_secret_hash_unique'),
  scopes: text('scopes').notNull(),
  createdBy: uuid('created_by'),
  createdAt: createdAt(),
  lastUsedAt: timestamp('last_used_at'),
  expiresAt: timestamp('expires_at'),
});

/** GCRA state of the SQL rate limiter: one theoretical arrival time per `${rule}:${key}`. */
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  tatMs: integer('tat_ms').notNull(),
});

/** Named leases: whoever holds an unexpired row may do the named work (one scheduled purge at a time). */
export const leases = sqliteTable('leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: timestamp('expires_at').notNull(),
});

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
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at').notNull(),
  },
  (t) => [primaryKey({ name: 'idempotency_keys_pk', columns: [t.scope, t.key] })],
);

/** The purge settings: one row, id 'media'. No row = the defaults. */
export const purgeSettings = sqliteTable('purge_settings', {
  id: text('id').primaryKey(),
  enabled: bool('enabled').notNull(),
  intervalHours: integer('interval_hours').notNull(),
  removeDuplicates: bool('remove_duplicates').notNull(),
  removeOrphans: bool('remove_orphans').notNull(),
  orphanGraceHours: integer('orphan_grace_hours').notNull(),
  dryRun: bool('dry_run').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

/** Every purge, manual or scheduled, dry or real: `removed` is the JSON of what was (or would be) removed. */
export const purgeRuns = sqliteTable(
  'purge_runs',
  {
    id: id(),
    trigger: text('trigger').$type<'manual' | 'scheduled'>().notNull(),
    dryRun: bool('dry_run').notNull(),
    startedAt: timestamp('started_at').notNull(),
    finishedAt: timestamp('finished_at'),
    status: text('status').$type<'running' | 'succeeded' | 'failed'>().notNull(),
    removed: text('removed').notNull(),
    bytesFreed: integer('bytes_freed').notNull(),
    error: text('error'),
  },
  (t) => [index('purge_runs_trigger_started_at_idx').on(t.trigger, t.startedAt)],
);

/** The activity log where it lives in the database (Workers). `bytes`: the entry's NDJSON line length, for the size bound. */
export const activityLog = sqliteTable(
  'activity_log',
  {
    id: id(),
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
  id: id(),
  url: text('url').notNull(),
  events: text('events').notNull(),
  description: text('description'),
  secret: text('secret').notNull(),
  active: bool('active').notNull(),
  ...timestamps(),
});

/**
 * The outbox: one row per event, `body` the exact JSON every endpoint is sent.
 * `dedupeKey` (unique) makes an event that must happen once (a scheduled
 * publication) impossible to record twice, whoever races to record it.
 */
export const webhookEvents = sqliteTable(
  'webhook_events',
  {
    id: id(),
    type: text('type').notNull(),
    dedupeKey: text('dedupe_key').unique('webhook_events_dedupe_key_unique'),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_events_created_at_idx').on(t.createdAt)],
);

/** One event to one endpoint: retried until delivered or `maxAttempts` is spent. */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: id(),
    webhookId: ref('webhook_id', () => webhooks.id, 'cascade'),
    eventId: ref('event_id', () => webhookEvents.id, 'cascade'),
    status: text('status').$type<'pending' | 'delivered' | 'failed'>().notNull(),
    attempts: integer('attempts').notNull(),
    maxAttempts: integer('max_attempts').notNull(),
    /** Due time while pending (a claimed attempt pushes it past its own timeout); null once final. */
    nextAttemptAt: timestamp('next_attempt_at'),
    ...timestamps(),
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
    id: id(),
    webhookId: ref('webhook_id', () => webhooks.id, 'cascade'),
    deliveryId: ref('delivery_id', () => webhookDeliveries.id, 'cascade'),
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
