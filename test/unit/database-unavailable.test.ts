import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { isServerDatabaseUnavailable } from '../../worker/src/adapters/db/shared/unavailable-errors.js';
import { DomainError } from '../../worker/src/core/domain/errors.js';
import { onError, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../worker/src/http/middleware/errors.js';
import type { Logger } from '../../worker/src/ports/runtime.js';

/**
 * Every way a server database says "not now" is one 503 with Retry-After,
 * whichever driver reported it and whether or not an adapter translated it;
 * anything else stays what it was. The fault drills (test/node/db-fault-drills.test.ts)
 * meet the real errors; this pins the list.
 */
const pgError = (code: string) => Object.assign(new Error(`postgres ${code}`), { code, severity: 'FATAL' });
const mysqlError = (errno: number, code: string) => Object.assign(new Error(`mysql ${code}`), { errno, code });
// drizzle wraps the driver's error as `cause`.
const wrapped = (cause: Error) => Object.assign(new Error('Failed query: insert …'), { cause });

const UNAVAILABLE: [string, Error][] = [
  ['PostgreSQL admin_shutdown', pgError('57P01')],
  ['PostgreSQL crash_shutdown', pgError('57P02')],
  ['PostgreSQL cannot_connect_now', pgError('57P03')],
  ['PostgreSQL database not accepting connections', pgError('55000')],
  ['PostgreSQL too_many_connections', pgError('53300')],
  ['PostgreSQL read-only transaction (a standby)', pgError('25006')],
  ['PostgreSQL connection_failure', pgError('08006')],
  ['postgres.js CONNECTION_CLOSED', pgError('CONNECTION_CLOSED')],
  ['postgres.js CONNECT_TIMEOUT', pgError('CONNECT_TIMEOUT')],
  ['MySQL too many connections', mysqlError(1040, 'ER_CON_COUNT_ERROR')],
  ['MySQL shutdown in progress', mysqlError(1053, 'ER_SERVER_SHUTDOWN')],
  ['MySQL gone away', mysqlError(2006, 'CR_SERVER_GONE_ERROR')],
  ['MySQL lost connection', mysqlError(2013, 'CR_SERVER_LOST')],
  ['mysql2 PROTOCOL_CONNECTION_LOST', Object.assign(new Error('lost'), { code: 'PROTOCOL_CONNECTION_LOST' })],
  ['socket ECONNREFUSED', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })],
  ['socket ECONNRESET', Object.assign(new Error('reset'), { code: 'ECONNRESET' })],
  ['socket EPIPE', Object.assign(new Error('pipe'), { code: 'EPIPE' })],
  ['socket ETIMEDOUT', Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })],
];
const OTHERS: [string, Error][] = [
  ['PostgreSQL unique violation', pgError('23505')],
  ['PostgreSQL syntax error', pgError('42601')],
  ['MySQL duplicate entry', mysqlError(1062, 'ER_DUP_ENTRY')],
  ['a plain bug', new TypeError('x is undefined')],
];

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };

function appThrowing(err: unknown) {
  const app = new Hono();
  app.get('/', () => {
    throw err;
  });
  app.onError(onError(silent, isServerDatabaseUnavailable));
  return app;
}

describe('database unavailability', () => {
  it.each(UNAVAILABLE)('%s is unavailable, bare or wrapped by drizzle', (_, err) => {
    expect(isServerDatabaseUnavailable(err)).toBe(true);
    expect(isServerDatabaseUnavailable(wrapped(err))).toBe(true);
  });

  it.each(OTHERS)('%s is not', (_, err) => {
    expect(isServerDatabaseUnavailable(err)).toBe(false);
    expect(isServerDatabaseUnavailable(wrapped(err))).toBe(false);
  });

  it.each(UNAVAILABLE)('%s escaping untranslated is a 503 with Retry-After and no detail', async (_, err) => {
    const res = await appThrowing(wrapped(err)).request('/');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    const body = await res.json();
    expect(body).toEqual({ error: { code: 'unavailable', message: 'The database is unavailable' } });
  });

  it("a translated 'unavailable' gets Retry-After too; one that names its own keeps it", async () => {
    const plain = await appThrowing(new DomainError('unavailable', 'Storage is unavailable')).request('/');
    expect(plain.status).toBe(503);
    expect(plain.headers.get('retry-after')).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    const own = await appThrowing(new DomainError('unavailable', 'Later', undefined, 30)).request('/');
    expect(own.headers.get('retry-after')).toBe('30');
  });

  it('any other error stays a 500 without Retry-After', async () => {
    const res = await appThrowing(wrapped(pgError('42601'))).request('/');
    expect(res.status).toBe(500);
    expect(res.headers.get('retry-after')).toBeNull();
  });
});
