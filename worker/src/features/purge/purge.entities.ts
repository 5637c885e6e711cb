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

export type PurgeTrigger = 'manual' | 'scheduled';
export type PurgeRunStatus = 'running' | 'succeeded' | 'failed';

/** One image folded into an older one with the same bytes. */
export interface RemovedDuplicate {
  imageId: string;
  filename: string;
  survivorId: string;
  survivorFilename: string;
  bytes: number;
}

/** A blob under originals/ that no row names. */
export interface RemovedOrphanBlob {
  key: string;
  bytes: number;
}

/** A row whose original blob is gone. */
export interface RemovedMissingBlobRow {
  imageId: string;
  filename: string;
  bytes: number;
}

/** What a run removed, or (dry run) would remove. */
export interface PurgeRemoved {
  duplicates: RemovedDuplicate[];
  orphanBlobs: RemovedOrphanBlob[];
  rowsWithoutBlob: RemovedMissingBlobRow[];
}

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
