import { DomainError } from '../../../core/domain/errors.js';
import { withDeadline } from './request-deadline.js';
import type { SqlKit } from './sql-kit.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Ids are lower-case UUID strings on every dialect. PostgreSQL's uuid column
 * would reject anything else with an error (and lower-case it silently), so
 * the shared code normalises first and treats a malformed id as "no such row".
 */
export function normalizeId(id: string): string | null {
  return typeof id === 'string' && UUID.test(id) ? id.toLowerCase() : null;
}

export function requireId(id: string, field: string): string {
  const normalized = normalizeId(id);
  if (normalized === null) throw invalid(field, `${field} must be a UUID`);
  return normalized;
}

export function invalid(path: string, message: string): DomainError {
  return new DomainError('invalid_request', message, [{ path, message }]);
}

/**
 * PostgreSQL cannot store NUL in text; SQLite and MySQL can. Refusing it here
 * keeps the four databases behaving alike (and a lookup for a NUL-bearing
 * value simply finds nothing).
 */
export function hasNul(value: string | null | undefined): boolean {
  return typeof value === 'string' && value.includes('\u0000');
}

export function refuseNul(fields: Record<string, string | null | undefined>): void {
  for (const [path, value] of Object.entries(fields)) {
    if (hasNul(value)) throw invalid(path, `${path} must not contain NUL characters`);
  }
}

export function requireLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw invalid('limit', 'limit must be a whole number from 1 to 1000');
  }
  return limit;
}

/** D1 allows at most 100 bound parameters per statement; stay well below. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export const MAX_PARAMS = 90;

/** Translates driver failures that mean "the database is not there" into 'unavailable'. */
export function translate(kit: SqlKit, err: unknown): unknown {
  if (err instanceof DomainError) return err;
  return kit.isConnectionError(err) ? unavailable(err) : err;
}

export function unavailable(cause: unknown): DomainError {
  return Object.assign(new DomainError('unavailable', 'The database is unavailable'), { cause });
}

/** Wraps every method of a repository object with `translate` and the request's database deadline (request-deadline.ts). */
export function guarded<T extends object>(kit: SqlKit, repo: T): T {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(repo)) {
    // An async generator is returned as it is: wrapping it in an async
    // function would hand out a promise instead of the iterable. Its reads go
    // through the guarded methods instead.
    const generator = typeof fn === 'function' && fn.constructor.name === 'AsyncGeneratorFunction';
    out[name] =
      typeof fn === 'function' && !generator
        ? async (...args: unknown[]) => {
            const call = () => (fn as (...a: unknown[]) => Promise<unknown>).apply(repo, args);
            try {
              // Without a deadline (SQLite, D1) the call itself, not one more async step around it.
              return await (kit.timeoutMs === undefined ? call() : withDeadline(kit.timeoutMs, call));
            } catch (err) {
              throw translate(kit, err);
            }
          }
        : fn;
  }
  return out as T;
}

/** Refuses a write larger than the store can hold, as 413 rather than a driver error. */
export function refuseOversizedRow(
  kit: { maxRowBytes?: number },
  fields: Record<string, string | null | undefined>,
): void {
  if (kit.maxRowBytes === undefined) return;
  const encoder = new TextEncoder();
  let bytes = 0;
  for (const value of Object.values(fields)) if (value) bytes += encoder.encode(value).byteLength;
  // Leave room for the row's other columns.
  if (bytes > kit.maxRowBytes - 4096) {
    throw new DomainError(
      'payload_too_large',
      `This database stores at most about ${Math.floor(kit.maxRowBytes / 1_000_000)} MB per article`,
    );
  }
}
