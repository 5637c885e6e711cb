import { appendFile, open, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DomainError } from '../../core/domain/errors.js';
import {
  type ActivityActorType,
  type ActivityEntry,
  type ActivityFilter,
  type ActivityLogStore,
  actorKey,
  entryLine,
} from '../../ports/activity-log.js';
import { ensurePrivateDir, PRIVATE_FILE_MODE, restrictFile } from '../fs/private-files.js';
import { linesBackward, linesForward } from './ndjson-lines.js';

// Trim to 90% of the budget so that a full log is not rewritten on every append.
const TRIM_TO = 0.9;
const ACTOR_TYPES: ReadonlySet<string> = new Set(['user', 'apiKey', 'system']);

/** One line back into an entry; null for anything damaged (a line cut short by a crash). */
function parseLine(line: string): ActivityEntry | null {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
  const str = (key: string) => (typeof v[key] === 'string' ? (v[key] as string) : null);
  const at = new Date(str('at') ?? '');
  const id = str('id');
  const action = str('action');
  const actorType = str('actorType');
  if (!id || !action || !actorType || !ACTOR_TYPES.has(actorType) || Number.isNaN(at.getTime())) return null;
  const details =
    typeof v.details === 'object' && v.details !== null && !Array.isArray(v.details)
      ? (v.details as Record<string, unknown>)
      : null;
  return {
    id,
    at,
    actorType: actorType as ActivityActorType,
    actorId: str('actorId'),
    action,
    subjectType: str('subjectType'),
    subjectId: str('subjectId'),
    ip: str('ip'),
    details,
  };
}

function matches(entry: ActivityEntry, filter: ActivityFilter): boolean {
  return (
    (filter.action === undefined || entry.action === filter.action) &&
    (filter.actorId === undefined || entry.actorId === filter.actorId) &&
    (filter.from === undefined || entry.at >= filter.from) &&
    (filter.to === undefined || entry.at < filter.to)
  );
}

/**
 * The activity log as an append-only NDJSON file (Node). Appends are
 * serialised in this process; when the next line would pass `maxBytes`, the
 * newest lines that fit in 90% of it are written to a temporary file that
 * is renamed over the log, so the file never exceeds the bound and a crash
 * leaves either the old or the trimmed file, never half of one. One
 * process owns the file (several Node instances each keep their own).
 */
export function createNdjsonFileActivityLog(file: string, maxBytes: number): ActivityLogStore {
  let queue: Promise<unknown> = Promise.resolve();
  let ready: Promise<void> | undefined;

  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  async function size(): Promise<number> {
    try {
      return (await stat(file)).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
  }

  // A crash mid-append can leave a last line without its newline: end it, so
  // the next entry starts a line of its own (the damaged one is skipped on read).
  async function prepare(): Promise<void> {
    await ensurePrivateDir(path.dirname(file));
    await restrictFile(file);
    const bytes = await size();
    if (bytes === 0) return;
    const handle = await open(file, 'r');
    try {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, bytes - 1);
      if (last[0] !== 0x0a) await appendFile(file, '\n', { mode: PRIVATE_FILE_MODE });
    } finally {
      await handle.close();
    }
  }

  async function trim(room: number): Promise<void> {
    const budget = Math.floor(maxBytes * TRIM_TO) - room;
    const kept: string[] = [];
    let total = 0;
    for await (const line of linesBackward(file)) {
      const bytes = Buffer.byteLength(line) + 1;
      if (total + bytes > budget) break;
      kept.push(line);
      total += bytes;
    }
    kept.reverse();
    const temp = `${file}.trim-${process.pid}`;
    await writeFile(temp, kept.length === 0 ? '' : `${kept.join('\n')}\n`, { mode: PRIVATE_FILE_MODE });
    await rename(temp, file);
  }

  const store: ActivityLogStore = {
    maxBytes,
    size,

    async inWrite(entry) {
      if (Buffer.byteLength(entryLine(entry)) > maxBytes)
        throw new DomainError('payload_too_large', 'This activity entry is larger than the whole log');
      return { rows: [], afterCommit: () => store.append(entry) };
    },

    append(entry) {
      const line = entryLine(entry);
      const bytes = Buffer.byteLength(line);
      if (bytes > maxBytes)
        return Promise.reject(new DomainError('payload_too_large', 'This activity entry is larger than the whole log'));
      return serial(async () => {
        ready ??= prepare();
        await ready.catch((err: unknown) => {
          ready = undefined;
          throw err;
        });
        if ((await size()) + bytes > maxBytes) await trim(bytes);
        await appendFile(file, line, { mode: PRIVATE_FILE_MODE });
      });
    },

    async list(query) {
      const out: ActivityEntry[] = [];
      for await (const line of linesBackward(file)) {
        const entry = parseLine(line);
        if (!entry || !matches(entry, query)) continue;
        if (query.beforeId !== undefined && entry.id >= query.beforeId) continue;
        out.push(entry);
        if (out.length >= query.limit) break;
      }
      return out;
    },

    async *scan(filter, batchSize) {
      let batch: ActivityEntry[] = [];
      for await (const line of linesBackward(file)) {
        const entry = parseLine(line);
        if (!entry || !matches(entry, filter)) continue;
        batch.push(entry);
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },

    async count(filter) {
      const result = {
        byAction: {} as Record<string, number>,
        byActor: {} as Record<string, number>,
        byDay: {} as Record<string, number>,
        total: 0,
      };
      const bump = (map: Record<string, number>, key: string) => {
        map[key] = (map[key] ?? 0) + 1;
      };
      for await (const line of linesForward(file)) {
        const entry = parseLine(line);
        if (!entry || !matches(entry, filter)) continue;
        bump(result.byAction, entry.action);
        bump(result.byActor, actorKey(entry.actorType, entry.actorId));
        bump(result.byDay, entry.at.toISOString().slice(0, 10));
        result.total++;
      }
      return result;
    },
  };
  return store;
}
