import type { Tables } from '../../adapters/db/shared/sql-kit.js';
import { NO_PASSWORD, type TableExport, type TableExports } from './backup.entities.js';

/**
 * The tables of the platform and of the features written before features
 * declared their own (Feature `tables`), said once: in the archive or not,
 * and why. app/services.ts joins them with the features' into
 * `TABLE_EXPORTS` and does not compile while a table of the schema is in
 * neither, so a new table waits for someone to decide (docs/backups.md,
 * "What the archive holds").
 */
export const TABLE_EXPORT = {
  users: {
    export: true,
    // Accounts move; their secrets do not: an imported account has no
    // password until it is reset (`npm run cms -- reset-password`, or "Forgot password").
    omit: [
      'passwordHash',
      'tokenVersion',
      'verificationCodeHash',
      'verificationExpiresAt',
      'resetCodeHash',
      'resetExpiresAt',
    ],
    fill: { passwordHash: NO_PASSWORD },
  },
  sites: { export: true },
  authors: { export: true },
  tags: { export: true },
  articles: { export: true },
  articleAuthors: { export: true },
  articleTags: { export: true },
  images: { export: true },
  articleImages: { export: true },
  purgeSettings: { export: true },
  invitations: { export: false, why: 'one-time codes for this installation; invite again' },
  rateLimits: { export: false, why: 'transient counters' },
  purgeRuns: { export: false, why: "this installation's history" },
  leases: { export: false, why: 'transient locks' },
  apiKeys: { export: false, why: 'secrets; make new keys where the content moves' },
  activityLog: { export: false, why: "this installation's history" },
  activityLogUsage: { export: false, why: "the activity log's size, which is not exported" },
  systemState: { export: false, why: "this installation's update state" },
  webhooks: { export: false, why: "signing secrets sealed with this installation's JWT secret" },
  webhookEvents: { export: false, why: 'delivery outbox of this installation' },
  webhookDeliveries: { export: false, why: 'delivery outbox of this installation' },
  webhookAttempts: { export: false, why: 'delivery record of this installation' },
  previewTokens: { export: false, why: 'links to this installation; make new ones' },
  idempotencyKeys: { export: false, why: "answers kept for a day for this installation's clients' retries" },
} as const satisfies { readonly [K in keyof Tables]?: TableExport };

/** The exported tables, parents before children (the order the map lists them in). */
export const exportedTables = (exports: TableExports): (keyof Tables)[] =>
  Object.entries(exports)
    .filter(([, t]) => t.export)
    .map(([name]) => name as keyof Tables);
