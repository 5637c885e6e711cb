import type { Tables } from '../../adapters/db/shared/sql-kit.js';
import { NO_PASSWORD, type TableExport } from './backup.entities.js';

/**
 * Every table, said once: in the archive or not, and why. Keyed by the
 * schema's tables, so a new table does not compile until someone decides
 * (docs/backups.md, "What the archive holds").
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
} as const satisfies { readonly [K in keyof Tables]: TableExport };

/** Exported tables, parents before children (the order TABLE_EXPORT lists them in). */
export const EXPORTED = (Object.entries(TABLE_EXPORT) as [ExportedTable, TableExport][])
  .filter(([, t]) => t.export)
  .map(([name]) => name);

export type ExportedTable = {
  [K in keyof typeof TABLE_EXPORT]: (typeof TABLE_EXPORT)[K]['export'] extends true ? K : never;
}[keyof typeof TABLE_EXPORT];
