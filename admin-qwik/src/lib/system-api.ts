import type { Result } from './result';
import { isReadiness, isVersion, type Readiness, type VersionDto } from './system';
import { call } from './typed-api';

/** A public read whose answer is checked at run time too: these two screens show what the server says it is. */
async function checked<T>(answer: Promise<Result<unknown>>, isValid: (body: unknown) => body is T): Promise<Result<T>> {
  const res = await answer;
  if (!res.ok) {
    // These panels name the status: "The server answered 503: Storage unavailable."
    const said = res.status === null || res.message === `The server answered ${res.status}.`;
    return said ? res : { ...res, message: `The server answered ${res.status}: ${res.message}.` };
  }
  if (isValid(res.data)) return { ...res, data: res.data };
  return {
    ok: false,
    status: res.status,
    code: 'shape',
    message: 'The server answered in an unexpected shape.',
    issues: [],
  };
}

export const fetchVersion = (signal?: AbortSignal): Promise<Result<VersionDto>> =>
  checked(call('get', '/v1/system/version', { auth: false, ...(signal && { signal }) }), isVersion);

export const fetchReadiness = (signal?: AbortSignal): Promise<Result<Readiness>> =>
  checked(call('get', '/readyz', { auth: false, acceptStatuses: [503], ...(signal && { signal }) }), isReadiness);
