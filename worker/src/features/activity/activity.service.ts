import { decodeCursor, toPage } from '../../core/shared/pagination.js';
import {
  type ActivityActorType,
  type ActivityEntry,
  type ActivityLogStore,
  TrimFailed,
} from '../../ports/activity-log.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { Consequences } from '../../ports/unit-of-work.js';
import { type ActivityActor, type ActivityEvent, SYSTEM, type WriteOrigin } from '../../ports/write-effects.js';
import type { Page } from '../../wire/pagination.schema.js';
import type { ActivityEntryDto, ActivityFilterInput, ActivitySummaryDto } from './activity.schema.js';
import { escapeControls, sanitizeDetails } from './sanitize.js';

export interface ActivityDeps {
  activityLog: ActivityLogStore;
  clock: Clock;
  ids: IdGenerator;
  logError: (message: string, err: unknown) => void;
}

export { type ActivityActor, type ActivityEvent, SYSTEM, type WriteOrigin };

// Export pages: small enough that an export of any size holds one page in memory.
const EXPORT_BATCH = 500;

function actorOf(actor: ActivityActor): { actorType: ActivityActorType; actorId: string | null } {
  switch (actor.type) {
    case 'user':
      return { actorType: 'user', actorId: actor.user.id };
    case 'apiKey':
      return { actorType: 'apiKey', actorId: actor.key.id };
    case 'system':
      return { actorType: 'system', actorId: null };
    default:
      // Anonymous callers (a failed login, a reset request): a user not known to be one.
      return { actorType: 'user', actorId: null };
  }
}

export function toActivityEntryDto(e: ActivityEntry): ActivityEntryDto {
  return {
    id: e.id,
    at: e.at.toISOString(),
    actorId: e.actorId,
    actorType: e.actorType,
    action: e.action,
    subjectType: e.subjectType,
    subjectId: e.subjectId,
    ip: e.ip,
    details: e.details,
  };
}

/** `user:<id>` → its parts (see actorKey in ports/activity-log.ts). */
function splitActorKey(key: string): { actorType: ActivityActorType; actorId: string | null } {
  if (key === 'system') return { actorType: 'system', actorId: null };
  const at = key.indexOf(':');
  const type = key.slice(0, at) === 'apiKey' ? 'apiKey' : 'user';
  const id = key.slice(at + 1);
  return { actorType: type, actorId: id === 'anonymous' ? null : id };
}

const byCountDesc = <T extends { count: number }>(a: T, b: T) => b.count - a.count;

export function createActivityService(deps: ActivityDeps) {
  const { activityLog: log, clock, ids, logError } = deps;

  const entryOf = (event: ActivityEvent): ActivityEntry => ({
    id: ids.newId(),
    at: clock.now(),
    ...actorOf(event.actor),
    action: event.action,
    subjectType: event.subject?.type ?? null,
    subjectId: event.subject?.id === null || event.subject?.id === undefined ? null : escapeControls(event.subject.id),
    ip: event.ip ? escapeControls(event.ip) : null,
    details: sanitizeDetails(event.details),
  });

  return {
    /**
     * Builds the entry now (time, actor) and writes it; the promise never
     * rejects, so callers hand it to waitUntil and the request that caused
     * it can neither wait for nor fail on the log.
     */
    record(event: ActivityEvent): Promise<void> {
      let entry: ActivityEntry;
      try {
        entry = entryOf(event);
      } catch (err) {
        logError('activity entry not built', err);
        return Promise.resolve();
      }
      return log.append(entry).catch((err: unknown) => {
        // Said only of what is true: a failed trim comes after the entry was stored.
        logError(
          err instanceof TrimFailed ? 'activity log not trimmed' : `activity entry ${event.action} not written`,
          err,
        );
      });
    },

    /**
     * The entry as part of a write (ports/unit-of-work.ts): its rows commit
     * with the write where the log is a database; the file log appends it
     * after the commit. Throws when the entry cannot be built, so the write
     * does not happen without it.
     */
    async inWrite(event: ActivityEvent): Promise<Consequences> {
      const { rows, afterCommit } = await log.inWrite(entryOf(event));
      const after = () =>
        afterCommit().catch((err: unknown) => {
          // Said only of what is true: the write committed; the entry with it, unless the file log failed to append it.
          logError(
            err instanceof TrimFailed
              ? 'activity log not trimmed'
              : `activity entry ${event.action} not appended after its write committed`,
            err,
          );
        });
      return { rows, afterCommit: [after] };
    },

    async list(
      query: ActivityFilterInput & { limit: number; cursor?: string | undefined },
    ): Promise<Page<ActivityEntryDto>> {
      const beforeId = decodeCursor(query.cursor);
      const rows = await log.list({ ...filterOf(query), limit: query.limit + 1, ...(beforeId && { beforeId }) });
      return toPage(rows, query.limit, toActivityEntryDto);
    },

    async summary(filter: ActivityFilterInput): Promise<ActivitySummaryDto> {
      const [counts, sizeBytes] = await Promise.all([log.count(filterOf(filter)), log.size()]);
      return {
        from: filter.from?.toISOString() ?? null,
        to: filter.to?.toISOString() ?? null,
        total: counts.total,
        byAction: Object.entries(counts.byAction)
          .map(([action, count]) => ({ action, count }))
          .sort(byCountDesc),
        byActor: Object.entries(counts.byActor)
          .map(([key, count]) => ({ ...splitActorKey(key), count }))
          .sort(byCountDesc),
        byDay: Object.entries(counts.byDay)
          .map(([day, count]) => ({ day, count }))
          .sort((a, b) => a.day.localeCompare(b.day)),
        sizeBytes,
        maxBytes: log.maxBytes,
      };
    },

    /** Every matching entry, newest first, a page at a time: what the export streams. */
    async *entries(filter: ActivityFilterInput): AsyncGenerator<ActivityEntryDto[]> {
      for await (const rows of log.scan(filterOf(filter), EXPORT_BATCH)) yield rows.map(toActivityEntryDto);
    },
  };
}

function filterOf(f: ActivityFilterInput) {
  return {
    ...(f.action !== undefined && { action: f.action }),
    ...(f.actorId !== undefined && { actorId: f.actorId }),
    ...(f.from !== undefined && { from: f.from }),
    ...(f.to !== undefined && { to: f.to }),
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
