import * as z from 'zod';

/** Error codes of the API contract (docs/api.md#errors) and the status each maps to. The one list. */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  registration_closed: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  key_reused: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const ErrorIssueSchema = z.object({ path: z.string(), message: z.string() });

/** `{ "error": { "code", "message", "issues"? } }`: every answer of 400 and above. */
export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      issues: z.array(ErrorIssueSchema).optional(),
    }),
  })
  .meta({ id: 'Error' });

export type ErrorIssue = z.output<typeof ErrorIssueSchema>;
export type ErrorBody = z.output<typeof ErrorSchema>;
