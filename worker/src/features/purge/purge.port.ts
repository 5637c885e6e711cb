import type { PurgeRun, PurgeSettings } from './purge.entities.js';

/** The purge's settings and record: what the core needs from storage. */

export interface PurgeRepository {
  /** The stored settings, or the defaults when none were ever saved. */
  getSettings(): Promise<PurgeSettings>;
  saveSettings(settings: PurgeSettings, now: Date): Promise<void>;
  /** Records a run as it starts (status 'running'). */
  startRun(run: PurgeRun): Promise<void>;
  /** Records the outcome. */
  finishRun(run: PurgeRun): Promise<void>;
  /** Newest first (id descending), keyset paged. */
  listRuns(query: { limit: number; beforeId?: string }): Promise<PurgeRun[]>;
  /** The newest scheduled run (dry or real, whatever its outcome): the scheduler's clock. */
  lastScheduledRun(): Promise<PurgeRun | null>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    purge: PurgeRepository;
  }
}
