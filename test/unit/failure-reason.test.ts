import { connect } from 'node:net';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../worker/src/core/domain/errors.js';
import { failureReason, MAX_REASON_LENGTH } from '../../worker/src/core/domain/failure-reason.js';

/** The error a refused TCP connection really raises on this machine. */
async function refusedConnection(): Promise<Error> {
  return new Promise((resolve) => {
    const socket = connect(1, '127.0.0.1');
    socket.on('error', resolve);
  });
}

describe('failureReason: what a stored run or attempt says of a failure', () => {
  it("never keeps a failed query's SQL or parameters", () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "article_images_pk"'), {
      name: 'PostgresError',
      code: '23505',
    });
    const err = new DrizzleQueryError('insert into "article_images" select $1', ['secret-parameter'], cause);
    expect(failureReason(err)).toBe('database error');
    expect(failureReason(Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' }))).toBe('database error');
  });

  it('classifies network failures, timeouts and TLS refusals', async () => {
    expect(failureReason(await refusedConnection())).toBe('connection refused');
    expect(failureReason(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toBe('timed out');
    expect(failureReason(Object.assign(new Error('x'), { code: 'CERT_HAS_EXPIRED' }))).toBe('TLS handshake refused');
    // Wrapped: the cause decides.
    const wrapped = new Error('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ENOTFOUND' }) });
    expect(failureReason(wrapped)).toBe('host not found');
  });

  it('passes the messages this code writes for clients, bounded', () => {
    expect(failureReason(new DomainError('unavailable', 'The database is unavailable'))).toBe(
      'The database is unavailable',
    );
    expect(failureReason(new DomainError('conflict', 'x'.repeat(500)))).toHaveLength(MAX_REASON_LENGTH);
  });

  it('keeps nothing of an arbitrary error message', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.option(fc.oneof(fc.string(), fc.constantFrom('constructor', '__proto__', 'toString')), { nil: undefined }),
        (message, code) => {
          const reason = failureReason(Object.assign(new Error(message), { code }), 'request failed');
          expect(['request failed', 'database error', 'TLS handshake refused']).toContain(reason);
        },
      ),
    );
  });
});
