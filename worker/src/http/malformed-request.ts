import type { ErrorBody, ErrorCode } from '../wire/errors.js';
import { ERROR_STATUS } from '../wire/errors.js';
import { JSON_TYPE } from './middleware/json-type.js';
import { SECURITY_HEADERS } from './middleware/security-headers.js';

/**
 * The answer for a request the Node adapter could not even turn into a
 * Request (a backslash in the path, a Host header that is no host), which
 * therefore never reaches the Hono app and its onError. Without it
 * @hono/node-server answers a bare 400: no body, none of the security
 * headers. Found by the reliability fuzzer (docs/reliability.md).
 */
export function adapterErrorResponse(malformed: boolean, requestId: string): Response {
  const code: ErrorCode = malformed ? 'invalid_request' : 'internal';
  const body: ErrorBody = { error: { code, message: malformed ? 'Malformed request' : 'Internal error' } };
  return new Response(JSON.stringify(body), {
    status: ERROR_STATUS[code],
    headers: [
      ['Content-Type', JSON_TYPE],
      ['X-Request-Id', requestId],
      ...SECURITY_HEADERS.map(([n, v]) => [n, v] as [string, string]),
    ],
  });
}
