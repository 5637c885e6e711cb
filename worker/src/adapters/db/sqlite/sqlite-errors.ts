import { someInChain } from '../shared/sql-kit.js';

/**
 * SQLite error classification shared by D1 and better-sqlite3. better-sqlite3
 * sets extended result codes; D1 only offers the message text
 * ("D1_ERROR: UNIQUE constraint failed: users.email: SQLITE_CONSTRAINT").
 */

const text = (e: Record<string, unknown>) => (typeof e.message === 'string' ? e.message : '');
const code = (e: Record<string, unknown>) => (typeof e.code === 'string' ? e.code : '');

export function isSqliteUniqueViolation(err: unknown): boolean {
  return someInChain(
    err,
    (e) =>
      code(e) === 'SQLITE_CONSTRAINT_UNIQUE' ||
      code(e) === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
      /UNIQUE constraint failed/.test(text(e)),
  );
}

export function isSqliteForeignKeyViolation(err: unknown): boolean {
  return someInChain(
    err,
    (e) => code(e) === 'SQLITE_CONSTRAINT_FOREIGNKEY' || /FOREIGN KEY constraint failed/.test(text(e)),
  );
}

// Busy/locked survive busy_timeout only under real contention; I/O, open and
// full-disk errors mean the file is not usable. All are "try again later".
const UNAVAILABLE_CODES = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|NOTADB|CORRUPT)/;
// D1's transient failures, as its documentation lists them.
const D1_UNAVAILABLE =
  /Network connection lost|overloaded|storage caused object to be reset|object to be reset|timed? ?out|exceeded timeout|Cannot resolve D1 DB|D1 DB is unavailable/i;

export function isSqliteConnectionError(err: unknown): boolean {
  return someInChain(
    err,
    (e) =>
      UNAVAILABLE_CODES.test(code(e)) ||
      D1_UNAVAILABLE.test(text(e)) ||
      /database connection is not open/.test(text(e)),
  );
}
