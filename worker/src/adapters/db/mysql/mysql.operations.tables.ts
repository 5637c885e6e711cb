import { sql } from 'drizzle-orm';
import {
  bigint,
  char,
  check,
  index,
  int,
  longtext,
  mediumtext,
  mysqlTable,
  primaryKey,
  text,
  unique,
} from 'drizzle-orm/mysql-core';
import type { ROLES } from '../../../wire/vocabulary.js';
import { bool, createdAt, id, ref, str, timestamp, timestamps, uuid } from './mysql.columns.js';

/** The service's own tables on MySQL / MariaDB, as in sqlite/sqlite.operations.tables.ts (where the comments are). */

type Role = (typeof ROLES)[number];

export const users = mysqlTable(
  'users',
  {
    id: id(),
    email: str('email', 254).notNull().unique('users_email_unique'),
    displayName: str('display_name', 255),
    role: str('role', 16).$type<Role>().notNull(),
    verified: bool('verified').notNull().default(false),
    passwordHash: str('password_hash', 512).notNull(),
    tokenVersion: int('token_version').notNull().default(0),
    ownerLock: int('owner_lock').unique('users_owner_lock_unique'),
    verificationCodeHash: str('verification_code_hash', 128).unique('users_verification_code_hash_unique'),
    verificationExpiresAt: timestamp('verification_expires_at'),
    resetCodeHash: str('reset_code_hash', 128).unique('users_reset_code_hash_unique'),
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

export const invitations = mysqlTable(
  'invitations',
  {
    id: id(),
    email: str('email', 254).notNull().unique('invitations_email_unique'),
    role: str('role', 16).$type<Role>().notNull(),
    codeHash: str('code_hash', 128).notNull().unique('invitations_code_hash_unique'),
    expiresAt: timestamp('expires_at').notNull(),
    createdAt: createdAt(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('invitations_invited_by_idx').on(t.invitedBy)],
);

export const apiKeys = mysqlTable('api_keys', {
  id: id(),
  name: str('name', 255).notNull(),
  prefix: str('prefix', 32).notNull(),
  secretHash: char('secret_hash', { length: 64 }).notNull().unique('api_keys_secret_hash_unique'),
  scopes: str('scopes', 255).notNull(),
  createdBy: uuid('created_by'),
  createdAt: createdAt(),
  lastUsedAt: timestamp('last_used_at'),
  expiresAt: timestamp('expires_at'),
});

export const rateLimits = mysqlTable('rate_limits', {
  key: str('key', 200).primaryKey(),
  tatMs: bigint('tat_ms', { mode: 'number' }).notNull(),
});

export const leases = mysqlTable('leases', {
  name: str('name', 100).primaryKey(),
  holder: str('holder', 100).notNull(),
  expiresAt: timestamp('expires_at').notNull(),
});

export const idempotencyKeys = mysqlTable(
  'idempotency_keys',
  {
    scope: str('scope', 80).notNull(),
    key: str('key', 255).notNull(),
    fingerprint: char('fingerprint', { length: 64 }).notNull(),
    status: int('status'),
    headers: text('headers'),
    body: longtext('body'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at').notNull(),
  },
  (t) => [primaryKey({ name: 'idempotency_keys_pk', columns: [t.scope, t.key] })],
);

export const purgeSettings = mysqlTable('purge_settings', {
  id: str('id', 32).primaryKey(),
  enabled: bool('enabled').notNull(),
  intervalHours: int('interval_hours').notNull(),
  removeDuplicates: bool('remove_duplicates').notNull(),
  removeOrphans: bool('remove_orphans').notNull(),
  orphanGraceHours: int('orphan_grace_hours').notNull(),
  dryRun: bool('dry_run').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

export const purgeRuns = mysqlTable(
  'purge_runs',
  {
    id: id(),
    trigger: str('trigger', 16).$type<'manual' | 'scheduled'>().notNull(),
    dryRun: bool('dry_run').notNull(),
    startedAt: timestamp('started_at').notNull(),
    finishedAt: timestamp('finished_at'),
    status: str('status', 16).$type<'running' | 'succeeded' | 'failed'>().notNull(),
    removed: longtext('removed').notNull(),
    bytesFreed: bigint('bytes_freed', { mode: 'number' }).notNull(),
    error: text('error'),
  },
  (t) => [index('purge_runs_trigger_started_at_idx').on(t.trigger, t.startedAt)],
);

export const activityLog = mysqlTable(
  'activity_log',
  {
    id: id(),
    at: timestamp('at').notNull(),
    actorType: str('actor_type', 16).$type<'user' | 'apiKey' | 'system'>().notNull(),
    actorId: str('actor_id', 64),
    action: str('action', 64).notNull(),
    subjectType: str('subject_type', 32),
    subjectId: str('subject_id', 64),
    ip: str('ip', 64),
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
  id: str('id', 16).primaryKey(),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
});

export const systemState = mysqlTable('system_state', {
  key: str('key', 100).primaryKey(),
  value: longtext('value').notNull(),
  version: bigint('version', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});

export const webhooks = mysqlTable('webhooks', {
  id: id(),
  url: str('url', 2048).notNull(),
  events: str('events', 255).notNull(),
  description: str('description', 500),
  secret: str('secret', 255).notNull(),
  active: bool('active').notNull(),
  ...timestamps(),
});

export const webhookEvents = mysqlTable(
  'webhook_events',
  {
    id: id(),
    type: str('type', 64).notNull(),
    dedupeKey: str('dedupe_key', 100).unique('webhook_events_dedupe_key_unique'),
    body: mediumtext('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_events_created_at_idx').on(t.createdAt)],
);

export const webhookDeliveries = mysqlTable(
  'webhook_deliveries',
  {
    id: id(),
    webhookId: ref('webhook_id', () => webhooks.id, 'cascade'),
    eventId: ref('event_id', () => webhookEvents.id, 'cascade'),
    status: str('status', 16).$type<'pending' | 'delivered' | 'failed'>().notNull(),
    attempts: int('attempts').notNull(),
    maxAttempts: int('max_attempts').notNull(),
    nextAttemptAt: timestamp('next_attempt_at'),
    ...timestamps(),
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
    id: id(),
    webhookId: ref('webhook_id', () => webhooks.id, 'cascade'),
    deliveryId: ref('delivery_id', () => webhookDeliveries.id, 'cascade'),
    eventId: uuid('event_id').notNull(),
    eventType: str('event_type', 64).notNull(),
    attempt: int('attempt').notNull(),
    at: timestamp('at').notNull(),
    outcome: str('outcome', 16).$type<'delivered' | 'retrying' | 'failed'>().notNull(),
    statusCode: int('status_code'),
    error: str('error', 500),
    durationMs: int('duration_ms').notNull(),
    nextAttemptAt: timestamp('next_attempt_at'),
  },
  (t) => [
    index('webhook_attempts_webhook_id_id_idx').on(t.webhookId, t.id),
    index('webhook_attempts_delivery_id_idx').on(t.deliveryId),
    index('webhook_attempts_at_idx').on(t.at),
  ],
);
