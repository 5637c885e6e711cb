import { v7 as uuidv7 } from 'uuid';
import type { Clock, IdGenerator, Logger } from '../../ports/runtime.js';

export const systemClock: Clock = { now: () => new Date() };

/** The uuid package keeps v7 ids monotonic within a process, even inside one millisecond. */
export const uuidV7Ids: IdGenerator = { newId: () => uuidv7() };

// Log lines are JSON; control characters in values are escaped by JSON itself.
const errorFields = (err: unknown) =>
  err instanceof Error ? { error: err.message, name: err.name, stack: err.stack } : { error: String(err) };

export function createJsonLogger(write: (line: string) => void): Logger {
  return {
    info: (message, fields) => write(JSON.stringify({ level: 'info', at: new Date().toISOString(), message, ...fields })),
    error: (message, err) =>
      write(JSON.stringify({ level: 'error', at: new Date().toISOString(), message, ...(err === undefined ? {} : errorFields(err)) })),
  };
}
