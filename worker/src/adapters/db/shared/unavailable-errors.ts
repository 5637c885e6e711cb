import { someInChain } from './sql-kit.js';

/**
 * The one list of driver errors that mean "the database is not there just
 * now" for the server databases: the caller is answered 503 with Retry-After
 * (docs/api.md#errors), never 500. Both drivers' codes live here so that a new
 * one is added once; they do not collide (SQLSTATEs are five-character
 * strings, MySQL's are numbers, the rest are named).
 */

// Sockets, the same for mysql2 and postgres.js.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

const DRIVER_CODES = new Set([
  // postgres.js
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  // mysql2
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
]);

// PostgreSQL, besides class 08 (connection exception).
const SQLSTATES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '57P05', // idle_session_timeout
  '57014', // query_canceled: a statement stopped by its deadline
  '55000', // object_not_in_prerequisite_state: the database does not accept connections now
  '53000', // insufficient_resources
  '53300', // too_many_connections
  '25006', // read_only_sql_transaction: a standby after a failover
  '25P03', // idle_in_transaction_session_timeout
]);

// MySQL/MariaDB error numbers.
const ERRNOS = new Set([
  1040, // too many connections
  1053, // server shutdown in progress
  1205, // lock wait timeout (only after the transaction's retries)
  1290, // --read-only
  1317, // query interrupted
  1836, // read-only mode
  1927, // connection killed (MariaDB)
  2002, // cannot connect
  2003, // cannot connect (TCP)
  2006, // server has gone away
  2013, // lost connection during query
  3024, // max execution time exceeded
]);

export function isServerDatabaseUnavailable(err: unknown): boolean {
  return someInChain(err, (e) => {
    const code = typeof e.code === 'string' ? e.code : '';
    return (
      NETWORK_CODES.has(code) ||
      DRIVER_CODES.has(code) ||
      SQLSTATES.has(code) ||
      /^08[0-9A-Z]{3}$/.test(code) ||
      (typeof e.errno === 'number' && ERRNOS.has(e.errno)) ||
      (typeof e.message === 'string' && /Pool is closed|connection is in closed state/i.test(e.message))
    );
  });
}
