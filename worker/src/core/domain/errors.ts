import type { ErrorCode, ErrorIssue } from '../../contract/errors.js';

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
