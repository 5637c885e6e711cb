import type { ErrorCode, ErrorIssue } from '../../wire/errors.js';

/**
 * The one error type below the HTTP layer. Adapters translate driver errors
 * into it; `http/middleware/errors.ts` maps the code to a status and body.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: ErrorIssue[],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = () => new DomainError('not_found', 'Not found');

/**
 * A conditional write whose `If-Match` names no current version: answered
 * 412 with the uniform error body (code `conflict`), the current ETag in the
 * `ETag` header, and `current` beside `error`, so the client can show both
 * versions and let its user choose.
 */
export class PreconditionFailed extends DomainError {
  constructor(
    message: string,
    readonly etag: string,
    readonly current: Readonly<Record<string, unknown>>,
  ) {
    super('conflict', message);
    this.name = 'PreconditionFailed';
  }
}
