import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError, PreconditionFailed } from '../../core/domain/errors.js';
import type { Logger } from '../../ports/runtime.js';
import { ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorIssue } from '../../wire/errors.js';

const CODE_FOR_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  429: 'rate_limited',
  503: 'unavailable',
};

export function errorResponse(c: Context, code: ErrorCode, message: string, issues?: ErrorIssue[]): Response {
  const body: ErrorBody = { error: { code, message, ...(issues ? { issues } : {}) } };
  return c.json(body, ERROR_STATUS[code] as ContentfulStatusCode);
}

/**
 * What a 503 'unavailable' tells the client to wait when its source named no
 * time: a database restart or failover is over in seconds, and clients that
 * all come back at once are what keeps it down.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * The one place where errors become HTTP: the uniform body of
 * docs/api.md#errors, no stack traces. `isUnavailable` names the storage
 * failures that escaped their adapter untranslated (a dependency that is not
 * there): they are a 503 like the translated ones, not a 500.
 */
export const onError =
  (logger: Logger, isUnavailable: (err: unknown) => boolean = () => false): ErrorHandler =>
  (err, c) => {
    if (err instanceof PreconditionFailed) {
      c.header('ETag', err.etag);
      return c.json({ error: { code: err.code, message: err.message }, ...err.current }, 412);
    }
    if (err instanceof DomainError) {
      const retryAfter =
        err.retryAfterSeconds ?? (err.code === 'unavailable' ? UNAVAILABLE_RETRY_AFTER_SECONDS : undefined);
      if (retryAfter !== undefined) c.header('Retry-After', String(retryAfter));
      if (err.code === 'unavailable') logger.error('dependency unavailable', err);
      return errorResponse(c, err.code, err.message, err.issues);
    }
    if (isUnavailable(err)) {
      logger.error('dependency unavailable', err);
      c.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      return errorResponse(c, 'unavailable', 'The database is unavailable');
    }
    if (err instanceof HTTPException && err.status < 500) {
      const code = CODE_FOR_STATUS[err.status] ?? 'invalid_request';
      // Hono's own messages (malformed JSON, bad Content-Type) are safe to show.
      return errorResponse(c, code, err.message || 'Invalid request');
    }
    logger.error('unhandled error', err);
    return errorResponse(c, 'internal', 'Internal error');
  };
