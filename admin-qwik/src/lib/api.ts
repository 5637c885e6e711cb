/**
 * Client-side JSON reads from the API (same origin: the CSP allows
 * connect-src 'self' only). Never throws: every outcome is a value a screen
 * can render, so no screen is left spinning.
 */
export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number | null; message: string };

export interface GetJsonOptions {
  signal?: AbortSignal;
  /** Non-2xx statuses whose JSON body is still meaningful (e.g. 503 from /readyz). */
  acceptStatuses?: readonly number[];
}

export async function getJson<T>(
  path: string,
  isValid: (body: unknown) => body is T,
  options: GetJsonOptions = {},
): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(path, {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (err) {
    if (options.signal?.aborted) return { ok: false, status: null, message: 'Cancelled' };
    return { ok: false, status: null, message: `The server could not be reached (${describe(err)}).` };
  }
  if (!res.ok && !options.acceptStatuses?.includes(res.status)) {
    return { ok: false, status: res.status, message: `The server answered ${res.status}${await errorMessage(res)}.` };
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    return { ok: false, status: res.status, message: 'The server answered something other than JSON.' };
  }
  if (!isValid(body)) return { ok: false, status: res.status, message: 'The server answered in an unexpected shape.' };
  return { ok: true, status: res.status, data: body };
}

/** `: message` from the API's error body `{ error: { code, message } }`, if there is one. */
async function errorMessage(res: Response): Promise<string> {
  try {
    const body: unknown = await res.json();
    const message = isRecord(body) && isRecord(body.error) ? body.error.message : undefined;
    return typeof message === 'string' && message ? `: ${message}` : '';
  } catch {
    return '';
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
