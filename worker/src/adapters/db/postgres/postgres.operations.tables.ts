import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, text, unique, varchar } from 'drizzle-orm/pg-core';
import type { ROLES } from '../../../wire/vocabulary.js';
import { bool, createdAt, id, ref, timestamp, timestamps, uuid } from './postgres.columns.js';

/** The service's own tables on PostgreSQL, as in sqlite/sqlite.operations.tables.ts (where the comments are). */

type Role = (typeof ROLES)[number];

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull().unique('users_email_unique'),
    displayName: text('display_name'),
    role: text('role').$type<Role>().notNull(),
    verified: bool('verified').notNull().default(false),
    passwordHash: text('password_hash').notNull(),
    tokenVersion: integer('token_version').notNull().default(0),
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

export const invitations = pgTable(
  'invitations',
  {
    id: id(),
    email: text('email').notNull().unique('invitations_email_unique'),
    role: text('role').$type<Role>().notNull(),
    codeHash: text('code_hash').notNull().unique('invitations_code_hash_unique'),
    expiresAt: timestamp('expires_at').notNull(),
    createdAt: createdAt(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('invitations_invited_by_idx').on(t.invitedBy)],
);
export const apiKeys = pgTable('api_keys', {
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
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 200 }).primaryKey(),
  tatMs: bigint('tat_ms', { mode: 'number' }).notNull(),
});
export const leases = pgTable('leases', {
  name: varchar('name', { length: 100 }).primaryKey(),
  holder: varchar('holder', { length: 100 }).notNull(),
  expiresAt: timestamp('expires_at').notNull(),
});
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: varchar('scope', { length: 80 }).notNull(),
    key: varchar('key', { length: 255 }).notNull(),
    fingerprint: varchar('fingerprint', { length: 64 }).notNull(),
    status: integer('status'),
    headers: text('headers'),
    body: text('body'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at').notNull(),
  },
  (t) => [primaryKey({ name: 'idempotency_keys_pk', columns: [t.scope, t.key] })],
);
export const purgeSettings = pgTable('purge_settings', {
  id: text('id').primaryKey(),
  enabled: bool('enabled').notNull(),
  intervalHours: integer('interval_hours').notNull(),
  removeDuplicates: bool('remove_duplicates').notNull(),
  removeOrphans: bool('remove_orphans').notNull(),
  orphanGraceHours: integer('orphan_grace_hours').notNull(),
  dryRun: bool('dry_run').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});
export const purgeRuns = pgTable(
  'purge_runs',
  {
    id: id(),
    trigger: text('trigger').$type<'manual' | 'scheduled'>().notNull(),
    dryRun: bool('dry_run').notNull(),
    startedAt: timestamp('started_at').notNull(),
    finishedAt: timestamp('finished_at'),
    status: text('status').$type<'running' | 'succeeded' | 'failed'>().notNull(),
    removed: text('removed').notNull(),
    bytesFreed: bigint('bytes_freed', { mode: 'number' }).notNull(),
    error: text('error'),
  },
  (t) => [index('purge_runs_trigger_started_at_idx').on(t.trigger, t.startedAt)],
);
export const activityLog = pgTable(
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
  id: id(),
  url: text('url').notNull(),
  events: text('events').notNull(),
  description: text('description'),
  secret: text('secret').notNull(),
  active: bool('active').notNull(),
  ...timestamps(),
});
export const webhookEvents = pgTable(
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
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    webhookId: ref('webhook_id', () => webhooks.id, 'cascade'),
    eventId: ref('event_id', () => webhookEvents.id, 'cascade'),
    status: text('status').$type<'pending' | 'delivered' | 'failed'>().notNull(),
    attempts: integer('attempts').notNull(),
    maxAttempts: integer('max_attempts').notNull(),
    nextAttemptAt: timestamp('next_attempt_at'),
    ...timestamps(),
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
