import { DomainError } from './errors.js';

/** Longest reason a record keeps: a phrase for an operator, never a dump. */
export const MAX_REASON_LENGTH = 200;

const NETWORK_CODES = new Map<unknown, string>(
  Object.entries({
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    EPIPE: 'connection reset',
    ETIMEDOUT: 'timed out',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host not found',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
  }),
);

/** Node's certificate and TLS failures, by code. */
const isTlsCode = (code: string) => /^(CERT_|ERR_TLS_|ERR_SSL_)|SELF_SIGNED|UNABLE_TO_(VERIFY|GET)_/.test(code);

/** drizzle's wrapper, postgres.js, mysql2 (`ER_…`), SQLite and D1 (`SQLITE_…`), PostgreSQL's SQLSTATE. */
function isDatabaseError(e: { name?: unknown; code?: unknown }): boolean {
  if (e.name === 'DrizzleQueryError' || e.name === 'PostgresError') return true;
  return typeof e.code === 'string' && /^(ER_|SQLITE_)|^[0-9A-Z]{5}$/.test(e.code);
}

/**
 * What a stored record (a purge run, a webhook attempt) says of a failure.
 * Records are read over the API and kept for weeks, so they hold a short
 * classified reason, never a driver's message: a failed query's message
 * carries its SQL and parameters, other errors carry paths, hosts of
 * dependencies or stack frames. The full error goes to the log instead.
 * DomainError messages are written by this code for clients, so they pass.
 */
export function failureReason(err: unknown, fallback = 'internal error'): string {
  if (err instanceof DomainError) return err.message.slice(0, MAX_REASON_LENGTH);
  const e = (typeof err === 'object' && err !== null ? err : {}) as { name?: unknown; code?: unknown; cause?: unknown };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timed out';
  const network = NETWORK_CODES.get(e.code);
  if (network) return network;
  if (typeof e.code === 'string' && isTlsCode(e.code)) return 'TLS handshake refused';
  // A driver's query error wraps the database's own (drizzle's DrizzleQueryError): classify that.
  if (e.cause !== undefined && e.cause !== err) {
    const inner = failureReason(e.cause, '');
    if (inner !== '') return inner;
  }
  if (isDatabaseError(e)) return 'database error';
  return fallback;
}
