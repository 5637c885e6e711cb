import { isRecord } from './api';
import type { Issue, Result } from './result';
import { clearToken, getToken, loginHref } from './session';

/**
 * Authenticated JSON calls to the API. Never throws: every outcome is a value.
 * A 401 on a call that carried a token means the session is over: the token is
 * dropped and the browser goes to the login page.
 */
export type { Issue, Result };

export interface RequestOptions {
  body?: unknown;
  /** Send the session token (default true). */
  auth?: boolean;
  signal?: AbortSignal;
}

export async function api<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<Result<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = options.auth === false ? null : getToken();
  if (options.auth !== false && !token) {
    signedOut();
    return { ok: false, status: 401, code: 'unauthorized', message: 'You are signed out.', issues: [] };
  }
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (err) {
    if (options.signal?.aborted) return { ok: false, status: null, code: 'aborted', message: 'Cancelled', issues: [] };
    return {
      ok: false,
      status: null,
      code: 'network',
      message: `The server could not be reached (${err instanceof Error ? err.message : String(err)}).`,
      issues: [],
    };
  }
  return toResult<T>(res.status, await res.text(), !!token);
}

/** Shared by fetch and XMLHttpRequest: a status and a body text → a Result. */
export function toResult<T>(status: number, text: string, sentToken: boolean): Result<T> {
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (status >= 200 && status < 300) return { ok: true, status, data: body as T };
  if (status === 401 && sentToken) signedOut();
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  const issues = Array.isArray(error.issues)
    ? error.issues.filter(isRecord).map((i) => ({ path: String(i.path ?? ''), message: String(i.message ?? '') }))
    : [];
  const message = typeof error.message === 'string' && error.message ? error.message : `The server answered ${status}.`;
  const code = typeof error.code === 'string' ? error.code : 'error';
  return {
    ok: false,
    status,
    code,
    message: status === 429 ? `${message} Please wait a moment and try again.` : message,
    issues,
  };
}

function signedOut(): void {
  clearToken();
  if (typeof location !== 'undefined' && location.pathname !== '/login') {
    location.assign(loginHref(location.pathname + location.search));
  }
}

/** Upload with progress (fetch cannot report upload progress). */
export function upload<T>(path: string, file: File, onProgress: (fraction: number) => void): Promise<Result<T>> {
  return new Promise((resolve) => {
    const token = getToken();
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('accept', 'application/json');
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    });
    xhr.addEventListener('load', () => {
      onProgress(1);
      resolve(toResult<T>(xhr.status, xhr.responseText, !!token));
    });
    xhr.addEventListener('error', () =>
      resolve({
        ok: false,
        status: null,
        code: 'network',
        message: 'The upload failed: the server could not be reached.',
        issues: [],
      }),
    );
    xhr.addEventListener('abort', () =>
      resolve({ ok: false, status: null, code: 'aborted', message: 'Upload cancelled.', issues: [] }),
    );
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** The query parameter of the address the browser shows (static pages know no query at build time). */
export function queryParam(name: string): string | null {
  return new URL(location.href).searchParams.get(name);
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

// Kept here for the screens that import it from http; it lives with the other pure formatters.
export { formatBytes } from './format';

/**
 * A file the API answers with `Content-Disposition: attachment`, fetched with
 * the session token (a plain link could not send it) and handed to the
 * browser's downloads through a temporary object URL. Never throws.
 */
export async function download(path: string): Promise<Result<{ filename: string; bytes: number }>> {
  const token = getToken();
  if (!token) {
    signedOut();
    return { ok: false, status: 401, code: 'unauthorized', message: 'You are signed out.', issues: [] };
  }
  let res: Response;
  try {
    res = await fetch(path, { headers: { authorization: `Bearer ${token}` }, credentials: 'same-origin' });
  } catch (err) {
    return {
      ok: false,
      status: null,
      code: 'network',
      message: `The server could not be reached (${err instanceof Error ? err.message : String(err)}).`,
      issues: [],
    };
  }
  if (!res.ok) return toResult(res.status, await res.text(), true) as Result<never>;
  const blob = await res.blob();
  const disposition = res.headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? 'download';
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { ok: true, status: res.status, data: { filename, bytes: blob.size } };
}
