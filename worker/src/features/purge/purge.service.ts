import { DomainError } from '../../core/domain/errors.js';
import { failureReason } from '../../core/domain/failure-reason.js';
import { decodeCursor, toPage } from '../../core/shared/pagination.js';
import type { BlobInfo, BlobStore } from '../../ports/blob-store.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { Page } from '../../wire/pagination.schema.js';
import { type Image, originalKey } from '../media/index.js';
import type { PurgeRemoved, PurgeRun, PurgeTrigger } from './purge.entities.js';
import type { PurgeRunDto, PurgeSettingsDto, PurgeSettingsInput } from './purge.schema.js';
import { bytesOf, type PurgeInventory, planPurge } from './purge-planner.js';

const HOUR_MS = 60 * 60 * 1000;
const PAGE = 1000;

export interface PurgeDeps {
  repos: Repositories;
  blobs: BlobStore;
  clock: Clock;
  ids: IdGenerator;
  logError: (message: string, err: unknown) => void;
  /** Removes every variant of these images; failures are logged, not thrown. */
  dropVariants: (imageIds: string[]) => Promise<void>;
  /**
   * Told of every finished run. The scheduler records those in the activity
   * log as the system's; a manual run is recorded by its route, which knows
   * who asked.
   */
  recordPurgeActivity?: (run: PurgeRun) => Promise<void>;
  /** Public reads served from memory (Node with SQLite) must forget removed images. */
  publicReadCache?: { invalidate(): void };
  /** And those kept at the edge (Workers): the scheduled run has no request to do it. */
  edgeCache?: { changed(bookmark: null): Promise<void>; purge(): Promise<void> };
}

/** What the activity log keeps of a run: counts, not the lists (the run record has those). */
export function purgeRunDetails(run: PurgeRunDto): Record<string, unknown> {
  return {
    trigger: run.trigger,
    dryRun: run.dryRun,
    status: run.status,
    duplicates: run.removed.duplicates.length,
    orphanBlobs: run.removed.orphanBlobs.length,
    rowsWithoutBlob: run.removed.rowsWithoutBlob.length,
    bytesFreed: run.bytesFreed,
    ...(run.error !== null && { error: run.error }),
  };
}

export function toPurgeRunDto(run: PurgeRun): PurgeRunDto {
  return {
    ...run,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

async function inventory(deps: PurgeDeps): Promise<PurgeInventory> {
  const images: Image[] = [];
  let beforeId: string | undefined;
  for (;;) {
    const page = await deps.repos.images.list({ limit: PAGE, beforeId });
    images.push(...page);
    if (page.length < PAGE) break;
    beforeId = page[page.length - 1]!.id;
  }
  const originals: BlobInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.blobs.list(originalKey(''), cursor, PAGE);
    originals.push(...page.items);
    cursor = page.cursor ?? undefined;
  } while (cursor);
  return { images, originals };
}

/**
 * Carries out a plan. Each step re-checks the database, so something that
 * changed since planning (an upload finished, an image deleted) is skipped
 * and left out of the record rather than removed.
 */
async function execute(deps: PurgeDeps, plan: PurgeRemoved): Promise<PurgeRemoved> {
  const done: PurgeRemoved = { duplicates: [], orphanBlobs: [], rowsWithoutBlob: [] };
  const { repos, blobs, logError } = deps;
  for (const item of plan.duplicates) {
    const [duplicate, survivor] = await Promise.all([
      repos.images.findById(item.imageId),
      repos.images.findById(item.survivorId),
    ]);
    if (!duplicate || !survivor) continue;
    // Every reference (links, bodies, og images) moves to the survivor, in
    // one transaction, before any blob is deleted.
    if (!(await repos.images.mergeDuplicate(duplicate.id, survivor.id))) continue;
    await blobs.delete(originalKey(duplicate.filename)).catch((err) => logError('duplicate blob left behind', err));
    await deps.dropVariants([duplicate.id]);
    done.duplicates.push(item);
  }
  for (const item of plan.orphanBlobs) {
    // An upload writes the blob before its row: a row that appeared since is no orphan.
    if (await repos.images.findByFilename(item.key.slice(originalKey('').length))) continue;
    await blobs.delete(item.key);
    done.orphanBlobs.push(item);
  }
  for (const item of plan.rowsWithoutBlob) {
    if (await blobs.head(originalKey(item.filename))) continue;
    if (!(await repos.images.delete(item.imageId))) continue;
    await deps.dropVariants([item.imageId]);
    done.rowsWithoutBlob.push(item);
  }
  return done;
}

/** One purge, recorded from start to finish, under the id `id` (the lease's holder). */
export async function runPurge(deps: PurgeDeps, trigger: PurgeTrigger, dryRun: boolean, id: string): Promise<PurgeRun> {
  const settings = await deps.repos.purge.getSettings();
  const run: PurgeRun = {
    id,
    trigger,
    dryRun,
    startedAt: deps.clock.now(),
    finishedAt: null,
    status: 'running',
    removed: { duplicates: [], orphanBlobs: [], rowsWithoutBlob: [] },
    bytesFreed: 0,
    error: null,
  };
  await deps.repos.purge.startRun(run);
  try {
    const plan = planPurge(await inventory(deps), settings, run.startedAt);
    run.removed = dryRun ? plan : await execute(deps, plan);
    run.status = 'succeeded';
  } catch (err) {
    run.status = 'failed';
    // The record is read over the API: a classified reason; the error itself goes to the log.
    run.error = failureReason(err);
    deps.logError('purge failed', err);
  }
  run.bytesFreed = bytesOf(run.removed);
  run.finishedAt = deps.clock.now();
  await deps.repos.purge.finishRun(run);
  if (!dryRun) {
    deps.publicReadCache?.invalidate();
    await deps.repos.readGeneration
      .advance(deps.clock.now())
      .catch((err) => deps.logError('read generation not advanced after the purge', err));
    await deps.edgeCache
      ?.changed(null)
      .then(() => deps.edgeCache?.purge())
      .catch((err) => deps.logError('edge cache not told of the purge', err));
  }
  await deps.recordPurgeActivity?.(run).catch((err) => deps.logError('purge activity not recorded', err));
  return run;
}

/** Every purge, manual or scheduled, dry or real, holds this lease: one at a time across instances. */
export const PURGE_LEASE = 'media-purge';
/** A holder that died blocks purges at most this long; a live one renews it every PURGE_RENEW_MS. */
export const PURGE_LEASE_MS = 2 * 60 * 1000;
const PURGE_RENEW_MS = 30 * 1000;

const isDue = (last: PurgeRun | null, intervalHours: number, now: Date) =>
  last === null || last.startedAt.getTime() + intervalHours * HOUR_MS <= now.getTime();

/**
 * Runs `work` holding the purge lease as `holder` (renewed while it runs,
 * given back after), or answers null at once when someone else holds it.
 */
async function underLease<T>(deps: PurgeDeps, holder: string, now: Date, work: () => Promise<T>): Promise<T | null> {
  const { leases } = deps.repos;
  const until = (at: Date) => new Date(at.getTime() + PURGE_LEASE_MS);
  if (!(await leases.acquire(PURGE_LEASE, holder, now, until(now)))) return null;
  const renew = setInterval(() => {
    const at = deps.clock.now();
    leases
      .acquire(PURGE_LEASE, holder, at, until(at))
      .then((held) => {
        // Another purge may start now: each step re-checks the database, so the overlap stays safe.
        if (!held) deps.logError('purge lease lost to another holder', new Error(`holder ${holder}`));
      })
      .catch((err) => deps.logError('purge lease not renewed', err));
  }, PURGE_RENEW_MS);
  try {
    return await work();
  } finally {
    clearInterval(renew);
    await leases.release(PURGE_LEASE, holder).catch((err) => deps.logError('purge lease not released', err));
  }
}

/**
 * What the cron trigger (Workers) and the timer (Node) both call. Runs a
 * purge when enabled and due, honouring the settings' dry run; several
 * instances, overlapping invocations and a manual run agree through the
 * purge lease, and the one holding it checks again that no other just ran.
 * Null when nothing ran.
 */
export async function runScheduledPurge(deps: PurgeDeps, now: Date): Promise<PurgeRun | null> {
  const settings = await deps.repos.purge.getSettings();
  if (!settings.enabled) return null;
  if (!isDue(await deps.repos.purge.lastScheduledRun(), settings.intervalHours, now)) return null;
  const id = deps.ids.newId();
  return underLease(deps, id, now, async () => {
    if (!isDue(await deps.repos.purge.lastScheduledRun(), settings.intervalHours, now)) return null;
    return runPurge(deps, 'scheduled', settings.dryRun, id);
  });
}

/** A manual purge while another runs: 409, naming the run that holds the lease when it is still there. */
async function alreadyRunning(deps: PurgeDeps): Promise<DomainError> {
  const running = await deps.repos.leases.holder(PURGE_LEASE, deps.clock.now());
  const message = running ? `A purge is already running: run ${running}` : 'A purge is already running';
  return new DomainError('conflict', message);
}

export function createPurgeService(deps: PurgeDeps) {
  const { repos, clock } = deps;

  async function settings(): Promise<PurgeSettingsDto> {
    const [settings, newest, lastScheduled] = await Promise.all([
      repos.purge.getSettings(),
      repos.purge.listRuns({ limit: 1 }),
      repos.purge.lastScheduledRun(),
    ]);
    const next = lastScheduled
      ? new Date(lastScheduled.startedAt.getTime() + settings.intervalHours * HOUR_MS)
      : clock.now();
    return {
      ...settings,
      lastRunAt: newest[0]?.startedAt.toISOString() ?? null,
      nextRunAt: settings.enabled ? next.toISOString() : null,
    };
  }

  return {
    settings,

    async saveSettings(input: PurgeSettingsInput): Promise<PurgeSettingsDto> {
      await repos.purge.saveSettings(input, clock.now());
      return settings();
    },

    /** A manual run, now; a DomainError('conflict') while another purge holds the lease. */
    async run(dryRun: boolean): Promise<PurgeRunDto> {
      const id = deps.ids.newId();
      const run = await underLease(deps, id, clock.now(), () => runPurge(deps, 'manual', dryRun, id));
      if (!run) throw await alreadyRunning(deps);
      return toPurgeRunDto(run);
    },

    async runs(limit: number, cursor?: string): Promise<Page<PurgeRunDto>> {
      const rows = await repos.purge.listRuns({ limit: limit + 1, beforeId: decodeCursor(cursor) });
      return toPage(rows, limit, toPurgeRunDto);
    },
  };
}

export type PurgeService = ReturnType<typeof createPurgeService>;
