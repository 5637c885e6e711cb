import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger, LogLevel, RequestLogContext, RequestScope } from '../../ports/runtime.js';

/**
 * The one log format of both targets: one JSON object per line, `level`,
 * `at`, `message`, the request's `requestId` when written while a request is
 * handled, then the call's own fields.
 */

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

// AsyncLocalStorage (node:async_hooks; on Workers through nodejs_compat)
// carries the request's context through every await and into work deferred
// from it, so services built once per process log with the right id.
const scope = new AsyncLocalStorage<RequestLogContext>();

export const asyncRequestScope: RequestScope = {
  run: (context, work) => scope.run(context, work),
};

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

// JSON.stringify escapes C0 controls and lone surrogates; these it leaves
// as they are, and a terminal acts on them (C1 controls, DEL) or reorders
// and hides text by them (bidi overrides and isolates, zero-width marks,
// line and paragraph separators). Escaped, the line parses to the same value.
const TERMINAL_UNSAFE = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/gu;
const terminalSafe = (json: string) =>
  json.replace(TERMINAL_UNSAFE, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);

export interface JsonLoggerOptions {
  /** Lines below this level are not written (LOG_LEVEL); default info. */
  level?: LogLevel;
}

/** `write` gets each line without its newline, and the line's level (Workers map it to console.error etc.). */
export function createJsonLogger(
  write: (line: string, level: LogLevel) => void,
  { level: threshold = 'info' }: JsonLoggerOptions = {},
): Logger {
  const min = RANK[threshold];
  const emit = (level: LogLevel, message: string, fields: Record<string, unknown> | undefined) => {
    if (RANK[level] < min) return;
    const context = scope.getStore();
    const record = {
      level,
      at: new Date().toISOString(),
      message,
      ...(context ? { requestId: context.requestId } : {}),
      ...fields,
    };
    write(terminalSafe(JSON.stringify(record)), level);
  };
  return {
    debug: (message, fields) => emit('debug', message, fields),
    info: (message, fields) => emit('info', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    error: (message, err, fields) =>
      emit('error', message, { ...fields, ...(err === undefined ? {} : errorFields(err)) }),
  };
}
