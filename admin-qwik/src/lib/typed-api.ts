import type { paths } from './api-schema';
import type { BodyOf, MethodsOf, Operation, PathParamsOf, QueryOf, SuccessOf } from './api-types';
import { BOOKMARK_HEADER, currentBookmark, rememberBookmark } from './d1-bookmark';
import { inWords, issueInWords } from './field-labels';
import { requestReauth } from './reauth';
import { type Issue, isRecord, type Result } from './result';
import { clearToken, getToken, loginHref } from './session';
import { buildUrl } from './url';

/**
 * The admin's one API client. Paths, parameters, bodies and answers are
 * checked against api-schema.d.ts, which is generated from the OpenAPI
 * description the server serves (/v1/openapi.json), so a screen that calls
 * a route wrongly does not compile; `npm run api:types` regenerates
 * it and a test fails while it is stale. Types are looked up by path and
 * method (`paths['/v1/…']['get']`), never by component name.
 *
 * Never throws: every outcome is a Result a screen can render. A 401 on a
 * call that carried the session token means the session is over: the token
 * is dropped and, while a screen offers signing in again in place
 * (`lib/reauth.ts`, the editor's dialog), the call waits for that and is sent
 * once more with the new token; otherwise the browser goes to the login
 * page. Same origin only (the CSP allows connect-src 'self').
 */
export type { ApiAnswer, ApiBody, ApiQuery } from './api-types';
export type { Issue, Result };

export interface CallOptions<O> {
  path?: PathParamsOf<O>;
  query?: QueryOf<O>;
  body?: BodyOf<O>;
  signal?: AbortSignal;
  /** Send the session token (default true; public pages send none). */
  auth?: boolean;
  /**
   * Non-2xx statuses whose body is still the answer (`/readyz` answers 503
   * with its checks); the caller checks the shape of such a body.
   */
  acceptStatuses?: readonly number[];
  /** `If-Match`: the ETag of the version this change was made to (the API answers 412 when it is stale). */
  ifMatch?: string | null;
}

export function call<P extends keyof paths & string, M extends MethodsOf<P>>(
  method: M,
  path: P,
  options: CallOptions<Operation<P, M>> = {},
): Promise<Result<SuccessOf<Operation<P, M>>>> {
  const url = buildUrl(
    path,
    options.path as Record<string, unknown> | undefined,
    options.query as Record<string, unknown> | undefined,
  );
  const { body, signal, auth, acceptStatuses, ifMatch } = options;
  return send<SuccessOf<Operation<P, M>>>(method.toUpperCase(), url, { body, signal, auth, acceptStatuses, ifMatch });
}

interface SendOptions {
  body: unknown;
  signal: AbortSignal | undefined;
  auth: boolean | undefined;
  acceptStatuses: readonly number[] | undefined;
  ifMatch?: string | null | undefined;
}

/** Runs `attempt`; after a 401 that a sign-in in place (lib/reauth.ts) answered, runs it once more. */
async function withReauth<T>(attempt: () => Promise<Result<T> & { sentToken?: boolean }>): Promise<Result<T>> {
  const first = await attempt();
  if (first.ok || first.status !== 401 || !first.sentToken) return strip(first);
  clearToken();
  const again = await requestReauth();
  if (again === null) {
    signedOut();
    return strip(first);
  }
  return again ? strip(await attempt()) : strip(first);
}

const strip = <T>(r: Result<T> & { sentToken?: boolean }): Result<T> => {
  const { sentToken: _, ...rest } = r;
  return rest as Result<T>;
};

function send<T>(method: string, url: string, options: SendOptions): Promise<Result<T>> {
  return withReauth(() => sendOnce<T>(method, url, options));
}

async function sendOnce<T>(
  method: string,
  url: string,
  { body, auth, signal, acceptStatuses, ifMatch }: SendOptions,
): Promise<Result<T> & { sentToken?: boolean }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = sessionToken(auth);
  if (token === undefined) return signedOutResult();
  if (token) headers.authorization = `Bearer ${token}`;
  const bookmark = token ? currentBookmark() : null;
  if (bookmark) headers[BOOKMARK_HEADER] = bookmark;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (ifMatch) headers['if-match'] = ifMatch;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      // Public reads may be served stale for a while (stale-while-revalidate,
      // docs/caching.md); the admin must see its own writes, so the browser
      // always asks again (a 304 when nothing changed).
      cache: 'no-cache',
      signal,
    });
  } catch (err) {
    if (signal?.aborted) return failure(null, 'aborted', 'Cancelled');
    return unreachable(err);
  }
  rememberBookmark(res.headers.get(BOOKMARK_HEADER));
  const result = toResult<T>(res.status, await res.text(), !!token, acceptStatuses, false);
  return result.ok ? { ...result, etag: res.headers.get('etag') } : { ...result, sentToken: !!token };
}

/** The token to send: null when the call is public, undefined when it needs one and there is none. */
function sessionToken(auth: boolean | undefined): string | null | undefined {
  if (auth === false) return null;
  return getToken() ?? undefined;
}

type Failure = Extract<Result<never>, { ok: false }>;

const failure = (status: number | null, code: string, message: string, issues: Issue[] = []): Failure => ({
  ok: false,
  status,
  code,
  message,
  issues,
});

const unreachable = (err: unknown): Result<never> =>
  failure(null, 'network', `The server could not be reached (${err instanceof Error ? err.message : String(err)}).`);

/** No token to send: signed out already. While a sign-in in place is offered the call is answered 401 and retried after it. */
function signedOutResult(): Result<never> & { sentToken: boolean } {
  return { ...failure(401, 'unauthorized', 'You are signed out.'), sentToken: true };
}

/** A status and a body text → a Result; shared with the upload, which goes through XMLHttpRequest. */
function toResult<T>(
  status: number,
  text: string,
  sentToken: boolean,
  acceptStatuses: readonly number[] = [],
  endSession = true,
): Result<T> {
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if ((status >= 200 && status < 300) || acceptStatuses.includes(status)) return { ok: true, status, data: body as T };
  if (status === 401 && sentToken && endSession) signedOut();
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  // Field keys become the labels people see (lib/field-labels.ts).
  const issues = Array.isArray(error.issues)
    ? error.issues
        .filter(isRecord)
        .map((i) => issueInWords({ path: String(i.path ?? ''), message: String(i.message ?? '') }))
    : [];
  const message =
    typeof error.message === 'string' && error.message ? inWords(error.message) : `The server answered ${status}.`;
  const code = typeof error.code === 'string' ? error.code : 'error';
  return {
    ...failure(status, code, status === 429 ? `${message} Please wait a moment and try again.` : message, issues),
    body,
  };
}

function signedOut(): void {
  clearToken();
  if (typeof location !== 'undefined' && location.pathname !== '/login') {
    location.assign(loginHref(location.pathname + location.search));
  }
}

/**
 * Where the served description says only "an object" (the generated type is
 * `Record<string, never>`), a screen names what it reads. Nothing else gets
 * through: once the description details the answer, the call stops
 * compiling and the generated type takes over.
 */
export function undescribed<T>(value: Record<string, never>): T;
export function undescribed<T>(value: Record<string, never>[]): T[];
export function undescribed<T>(value: Record<string, never> | Record<string, never>[]): T | T[] {
  return value as unknown as T | T[];
}

/**
 * A route that answers a file (`Content-Disposition: attachment`), fetched
 * with the session token (a plain link could not send it) and handed to the
 * browser's downloads through a temporary object URL.
 */
export async function download<P extends keyof paths & string>(
  path: P,
  query: QueryOf<Operation<P, 'get' & MethodsOf<P>>>,
): Promise<Result<{ filename: string; bytes: number }>> {
  const token = sessionToken(true);
  if (!token) {
    signedOut();
    return strip(signedOutResult());
  }
  let res: Response;
  try {
    res = await fetch(buildUrl(path, undefined, query as Record<string, unknown>), {
      headers: { authorization: `Bearer ${token}` },
      credentials: 'same-origin',
    });
  } catch (err) {
    return unreachable(err);
  }
  if (!res.ok) return toResult<never>(res.status, await res.text(), true);
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

/**
 * An image upload to an article, with progress (fetch cannot report upload
 * progress, XMLHttpRequest can); the answer is typed like call()'s.
 */
export function uploadImage(
  articleId: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<Result<SuccessOf<Operation<'/v1/articles/{id}/images', 'post'>>>> {
  return withReauth(() => uploadOnce(articleId, file, onProgress, signal));
}

function uploadOnce(
  articleId: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<Result<SuccessOf<Operation<'/v1/articles/{id}/images', 'post'>>> & { sentToken?: boolean }> {
  return new Promise((resolve) => {
    const token = sessionToken(true);
    if (!token) {
      resolve(signedOutResult());
      return;
    }
    const aborted = () => resolve(failure(null, 'aborted', 'Upload cancelled.'));
    if (signal?.aborted) {
      aborted();
      return;
    }
    const xhr = new XMLHttpRequest();
    // Cancelling aborts the request: the server never stores a half-sent file.
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.open('POST', buildUrl('/v1/articles/{id}/images', { id: articleId }));
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('authorization', `Bearer ${token}`);
    const bookmark = currentBookmark();
    if (bookmark) xhr.setRequestHeader(BOOKMARK_HEADER, bookmark);
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    });
    xhr.addEventListener('load', () => {
      onProgress(1);
      rememberBookmark(xhr.getResponseHeader(BOOKMARK_HEADER));
      resolve({ ...toResult(xhr.status, xhr.responseText, true, [], false), sentToken: true });
    });
    xhr.addEventListener('error', () =>
      resolve(failure(null, 'network', 'The upload failed: the server could not be reached.')),
    );
    xhr.addEventListener('abort', aborted);
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** An export archive (docs/backups.md) sent as the body of `POST /v1/import`, as it is on disk. */
export async function importArchive(file: File): Promise<Result<SuccessOf<Operation<'/v1/import', 'post'>>>> {
  const token = sessionToken(true);
  if (!token) return signedOutResult();
  let res: Response;
  try {
    res = await fetch(buildUrl('/v1/import'), {
      method: 'POST',
      headers: { accept: 'application/json', authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
      body: file,
      credentials: 'same-origin',
    });
  } catch (err) {
    return unreachable(err);
  }
  return toResult(res.status, await res.text(), true);
}
