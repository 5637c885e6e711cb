import { and, asc, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { DomainError } from '../../../core/domain/errors.js';
import {
  type ActivityEntry,
  type ActivityFilter,
  type ActivityLogStore,
  actorKey,
  entryLine,
  TrimFailed,
} from '../../../ports/activity-log.js';
import { guarded, MAX_PARAMS, requireId, requireLimit } from './repository-support.js';
import { outsideDatabaseBudget } from './request-deadline.js';
import type { SqlKit } from './sql-kit.js';
import { guardHolds, insertRow, rowsOf, statementsOf } from './unit-of-work.js';

type Row = SqlKit['tables']['activityLog']['$inferSelect'];

const USAGE_ID = 'log';
// Trim to 90% of the budget so that a full log is not trimmed on every append.
const TRIM_TO = 0.9;
const TRIM_BATCH = 500;
const encoder = new TextEncoder();

/** A mapper that changes shape: `details` is JSON text in the row, and `bytes` is the store's own bookkeeping. */
const toEntry = (row: Row): ActivityEntry => ({
  id: row.id,
  at: row.at,
  actorType: row.actorType,
  actorId: row.actorId,
  action: row.action,
  subjectType: row.subjectType,
  subjectId: row.subjectId,
  ip: row.ip,
  details: parseDetails(row.details),
});

function parseDetails(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The activity log in a database table (Workers: D1). The total size lives
 * in a one-row table updated in the same transaction as every append, so the
 * bound costs no scan; a trim recomputes it from the rows, which keeps it
 * exact even when two trims race.
 */
export function createSqlActivityLogStore(kit: SqlKit, maxBytes: number): ActivityLogStore {
  const { db } = kit;
  const { activityLog: log, activityLogUsage: usage } = kit.tables;
  const recount = () => sql`(select coalesce(sum(${log.bytes}), 0) from ${log})`;
  let usageRow: Promise<void> | undefined;

  // The usage row is made once, from whatever rows exist (a log that predates it).
  function ensureUsageRow(): Promise<void> {
    usageRow ??= (async () => {
      const [row] = await db.select({ id: usage.id }).from(usage).where(eq(usage.id, USAGE_ID)).limit(1);
      if (row) return;
      try {
        await db.insert(usage).values({ id: USAGE_ID, bytes: 0 });
      } catch (err) {
        if (!kit.isUniqueViolation(err)) throw err;
      }
      await db.update(usage).set({ bytes: recount() }).where(eq(usage.id, USAGE_ID));
    })().catch((err) => {
      usageRow = undefined;
      throw err;
    });
    return usageRow;
  }

  async function size(): Promise<number> {
    const [row] = await db.select({ bytes: usage.bytes }).from(usage).where(eq(usage.id, USAGE_ID)).limit(1);
    return Number(row?.bytes ?? 0);
  }

  async function trim(current: number): Promise<void> {
    let excess = current - Math.floor(maxBytes * TRIM_TO);
    while (excess > 0) {
      const oldest = await db.select({ id: log.id, bytes: log.bytes }).from(log).orderBy(asc(log.id)).limit(TRIM_BATCH);
      if (oldest.length === 0) break;
      const doomed: string[] = [];
      for (const row of oldest) {
        if (excess <= 0) break;
        doomed.push(row.id);
        excess -= row.bytes;
      }
      for (let i = 0; i < doomed.length; i += MAX_PARAMS) {
        const part = doomed.slice(i, i + MAX_PARAMS);
        await kit.atomic((tx) => [
          tx.delete(log).where(inArray(log.id, part)),
          tx.update(usage).set({ bytes: recount() }).where(eq(usage.id, USAGE_ID)),
        ]);
      }
    }
  }

  function where(filter: ActivityFilter, beforeId?: string): SQL | undefined {
    return and(
      filter.action === undefined ? undefined : eq(log.action, filter.action),
      filter.actorId === undefined ? undefined : eq(log.actorId, filter.actorId),
      filter.from === undefined ? undefined : gte(log.at, filter.from),
      filter.to === undefined ? undefined : lt(log.at, filter.to),
      beforeId === undefined ? undefined : lt(log.id, requireId(beforeId, 'cursor')),
    );
  }

  // The UTC day of `at`, in each dialect's own words.
  function day(): SQL<string> {
    if (kit.dialect === 'sqlite') return sql<string>`strftime('%Y-%m-%d', ${log.at} / 1000, 'unixepoch')`;
    if (kit.dialect === 'mysql') return sql<string>`date_format(${log.at}, '%Y-%m-%d')`;
    return sql<string>`to_char(${log.at} at time zone 'UTC', 'YYYY-MM-DD')`;
  }

  const store: ActivityLogStore = {
    maxBytes,
    size,

    async append(entry) {
      const { rows, afterCommit } = await store.inWrite(entry);
      await kit.atomic((tx) => statementsOf(rows, tx));
      await afterCommit();
    },

    async inWrite(entry) {
      const bytes = encoder.encode(entryLine(entry)).byteLength;
      if (bytes > maxBytes)
        throw new DomainError('payload_too_large', 'This activity entry is larger than the whole log');
      await ensureUsageRow();
      const row = {
        ...entry,
        id: requireId(entry.id, 'id'),
        details: entry.details === null ? null : JSON.stringify(entry.details),
        bytes,
      };
      return {
        rows: [
          rowsOf((tx, guard) => [
            insertRow(tx, log, row, guard),
            tx
              .update(usage)
              .set({ bytes: sql`${usage.bytes} + ${bytes}` })
              .where(and(eq(usage.id, USAGE_ID), guardHolds(tx, guard))),
          ]),
        ],
        // The trim is housekeeping: a write that committed stays committed whatever it does.
        afterCommit: async () => {
          try {
            const current = await size();
            if (current > maxBytes) await trim(current);
          } catch (err) {
            throw new TrimFailed(err);
          }
        },
      };
    },

    async list(query) {
      const rows = await db
        .select()
        .from(log)
        .where(where(query, query.beforeId))
        .orderBy(desc(log.id))
        .limit(requireLimit(query.limit));
      return rows.map(toEntry);
    },

    // Keyset pages: each is one indexed range read, however deep.
    async *scan(filter, batchSize) {
      let beforeId: string | undefined;
      for (;;) {
        const page = { ...filter, limit: batchSize, ...(beforeId && { beforeId }) };
        const rows = await outsideDatabaseBudget(() => safe.list(page));
        if (rows.length > 0) yield rows;
        if (rows.length < batchSize) return;
        beforeId = rows[rows.length - 1]!.id;
      }
    },

    async count(filter) {
      const condition = where(filter);
      const n = sql<number>`count(*)`;
      const dayOf = day();
      const [byAction, byActor, byDay] = await Promise.all([
        db.select({ key: log.action, n }).from(log).where(condition).groupBy(log.action),
        db
          .select({ type: log.actorType, id: log.actorId, n })
          .from(log)
          .where(condition)
          .groupBy(log.actorType, log.actorId),
        db.select({ key: dayOf, n }).from(log).where(condition).groupBy(dayOf),
      ]);
      const result = {
        byAction: {} as Record<string, number>,
        byActor: {} as Record<string, number>,
        byDay: {} as Record<string, number>,
        total: 0,
      };
      for (const row of byAction) {
        result.byAction[row.key] = Number(row.n);
        result.total += Number(row.n);
      }
      for (const row of byActor) result.byActor[actorKey(row.type, row.id)] = Number(row.n);
      for (const row of byDay) result.byDay[String(row.key)] = Number(row.n);
      return result;
    },
  };
  // scan calls the guarded list, so its failures read as 'unavailable' too.
  const safe = guarded(kit, store);
  return safe;
}
