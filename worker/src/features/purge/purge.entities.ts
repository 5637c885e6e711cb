import type { PURGE_RUN_STATUSES, PURGE_TRIGGERS, PurgeRemoved } from './purge.schema.js';

/** What the owner sets in the purge panel; persisted as one row. */
export interface PurgeSettings {
  enabled: boolean;
  intervalHours: number;
  removeDuplicates: boolean;
  removeOrphans: boolean;
  orphanGraceHours: number;
  dryRun: boolean;
}

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

export interface PurgeRun {
  id: string;
  trigger: PurgeTrigger;
  dryRun: boolean;
  startedAt: Date;
  finishedAt: Date | null;
  status: PurgeRunStatus;
  removed: PurgeRemoved;
  bytesFreed: number;
  error: string | null;
}
