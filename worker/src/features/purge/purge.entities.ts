import type { Row } from '../../adapters/db/rows.js';
import type { PURGE_RUN_STATUSES, PURGE_TRIGGERS, PurgeRemoved } from './purge.schema.js';

/** What the owner sets in the purge panel: its one row without the row's key and time. */
export type PurgeSettings = Omit<Row<'purgeSettings'>, 'id' | 'updatedAt'>;

export const DEFAULT_PURGE_SETTINGS: PurgeSettings = {
  enabled: false,
  intervalHours: 24,
  removeDuplicates: true,
  removeOrphans: true,
  orphanGraceHours: 24,
  dryRun: false,
};

export type PurgeTrigger = (typeof PURGE_TRIGGERS)[number];
export type PurgeRunStatus = (typeof PURGE_RUN_STATUSES)[number];

export type { PurgeRemoved };

/** A run: its row, with `removed` read from its JSON column. */
export type PurgeRun = Omit<Row<'purgeRuns'>, 'removed'> & { removed: PurgeRemoved };
