import { v7 as uuidv7 } from 'uuid';
import type { Clock, IdGenerator, Logger } from '../../ports/runtime.js';

export { asyncRequestScope, createJsonLogger } from './json-logger.js';

export const systemClock: Clock = { now: () => new Date() };

/** The uuid package keeps v7 ids monotonic within a process, even inside one millisecond. */
export const uuidV7Ids: IdGenerator = { newId: () => uuidv7() };

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
