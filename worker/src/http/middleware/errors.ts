import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorIssue } from '../../contract/errors.js';
import { DomainError, PreconditionFailed } from '../../core/domain/errors.js';
import type { Logger } from '../../ports/runtime.js';

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

/** The one place where errors become HTTP: the uniform body of docs/api.md#errors, no stack traces. */
export const onError =
  (logger: Logger): ErrorHandler =>
  (err, c) => {
    if (err instanceof PreconditionFailed) {
      c.header('ETag', err.etag);
      return c.json({ error: { code: err.code, message: err.message }, ...err.current }, 412);
    }
    if (err instanceof DomainError) {
      if (err.retryAfterSeconds !== undefined) c.header('Retry-After', String(err.retryAfterSeconds));
      if (err.code === 'unavailable') logger.error('dependency unavailable', err);
      return errorResponse(c, err.code, err.message, err.issues);
    }
    if (err instanceof HTTPException && err.status < 500) {
      const code = CODE_FOR_STATUS[err.status] ?? 'invalid_request';
      // Hono's own messages (malformed JSON, bad Content-Type) are safe to show.
      return errorResponse(c, code, err.message || 'Invalid request');
    }
    logger.error('unhandled error', err);
    return errorResponse(c, 'internal', 'Internal error');
  };
