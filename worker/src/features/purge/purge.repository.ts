import { desc, eq, lt } from 'drizzle-orm';
import { guarded, refuseNul, requireId, requireLimit } from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { DEFAULT_PURGE_SETTINGS, type PurgeRemoved, type PurgeRun } from './purge.entities.js';
import type { PurgeRepository } from './purge.port.js';

/** The key of the one settings row. */
const SETTINGS_ID = 'media';

type RunRow = SqlKit['tables']['purgeRuns']['$inferSelect'];

const EMPTY: PurgeRemoved = { duplicates: [], orphanBlobs: [], rowsWithoutBlob: [] };

function parseRemoved(text: string): PurgeRemoved {
  try {
    return { ...EMPTY, ...(JSON.parse(text) as Partial<PurgeRemoved>) };
  } catch {
    // Written only by this code; a damaged row still lists, just without details.
    return EMPTY;
  }
}

/** `removed` is JSON text in the row. */
const toRun = (row: RunRow): PurgeRun => ({ ...row, removed: parseRemoved(row.removed) });

export function createPurgeRepository(kit: SqlKit): PurgeRepository {
  const { db } = kit;
  const { purgeSettings, purgeRuns } = kit.tables;

  const repo: PurgeRepository = {
    async getSettings() {
      const [row] = await db.select().from(purgeSettings).where(eq(purgeSettings.id, SETTINGS_ID)).limit(1);
      if (!row) return { ...DEFAULT_PURGE_SETTINGS };
      const { id: _id, updatedAt: _at, ...settings } = row;
      return settings;
    },

    async saveSettings(settings, now) {
      const values = {
        enabled: settings.enabled,
        intervalHours: settings.intervalHours,
        removeDuplicates: settings.removeDuplicates,
        removeOrphans: settings.removeOrphans,
        orphanGraceHours: settings.orphanGraceHours,
        dryRun: settings.dryRun,
        updatedAt: now,
      };
      const update = () => db.update(purgeSettings).set(values).where(eq(purgeSettings.id, SETTINGS_ID));
      if (kit.affectedRows(await update()) > 0) return;
      try {
        await db.insert(purgeSettings).values({ id: SETTINGS_ID, ...values });
      } catch (err) {
        // Another save inserted the row first: ours is the later write.
        if (!kit.isUniqueViolation(err)) throw err;
        await update();
      }
    },

    async startRun(run) {
      refuseNul({ error: run.error });
      await db.insert(purgeRuns).values({
        id: requireId(run.id, 'id'),
        trigger: run.trigger,
        dryRun: run.dryRun,
        startedAt: run.startedAt,
        finishedAt: run.finishedAt,
        status: run.status,
        removed: JSON.stringify(run.removed),
        bytesFreed: run.bytesFreed,
        error: run.error,
      });
    },

    async finishRun(run) {
      await db
        .update(purgeRuns)
        .set({
          finishedAt: run.finishedAt,
          status: run.status,
          removed: JSON.stringify(run.removed),
          bytesFreed: run.bytesFreed,
          error: run.error === null ? null : run.error.replaceAll('\u0000', ''),
        })
        .where(eq(purgeRuns.id, requireId(run.id, 'id')));
    },

    async listRuns({ limit, beforeId }) {
      const rows = await db
        .select()
        .from(purgeRuns)
        .where(beforeId === undefined ? undefined : lt(purgeRuns.id, requireId(beforeId, 'cursor')))
        .orderBy(desc(purgeRuns.id))
        .limit(requireLimit(limit));
      return rows.map(toRun);
    },

    async lastScheduledRun() {
      const [row] = await db
        .select()
        .from(purgeRuns)
        .where(eq(purgeRuns.trigger, 'scheduled'))
        .orderBy(desc(purgeRuns.startedAt), desc(purgeRuns.id))
        .limit(1);
      return row ? toRun(row) : null;
    },
  };
  return guarded(kit, repo);
}
