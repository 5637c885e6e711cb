import { v7 as uuidv7 } from 'uuid';
import type { Clock, IdGenerator, Logger } from '../../ports/runtime.js';

export const systemClock: Clock = { now: () => new Date() };

/** The uuid package keeps v7 ids monotonic within a process, even inside one millisecond. */
export const uuidV7Ids: IdGenerator = { newId: () => uuidv7() };

// Log lines are JSON; control characters in values are escaped by JSON itself.
// `cause` carries what an answer must not show (a dependency's address, the driver's error).
const errorFields = (err: unknown) =>
  err instanceof Error
    ? {
        error: err.message,
        name: err.name,
        stack: err.stack,
        ...(err.cause === undefined
          ? {}
          : { cause: err.cause instanceof Error ? err.cause.message : String(err.cause) }),
      }
    : { error: String(err) };

export function createJsonLogger(write: (line: string) => void): Logger {
  return {
    info: (message, fields) =>
      write(JSON.stringify({ level: 'info', at: new Date().toISOString(), message, ...fields })),
    error: (message, err) =>
      write(
        JSON.stringify({
          level: 'error',
          at: new Date().toISOString(),
          message,
          ...(err === undefined ? {} : errorFields(err)),
        }),
      ),
  };
}

/**
 * Node's stand-in for waitUntil: runs the work, logs a failure, and lets a
 * graceful stop wait for what is still in flight.
 */
export function createDeferTracker(logger: Logger) {
  const pending = new Set<Promise<unknown>>();
  return {
    defer(work: Promise<unknown>) {
      const tracked = work
        .catch((err) => logger.error('deferred work failed', err))
        .finally(() => pending.delete(tracked));
      pending.add(tracked);
    },
    async drain(): Promise<void> {
      await Promise.allSettled([...pending]);
    },
  };
}
