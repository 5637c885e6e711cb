import http from 'node:http';

/**
 * A raw HTTP client for hostile requests. `fetch` normalises paths (`..`,
 * `%2e`), refuses some methods and headers, and always sends a well-formed
 * body; node:http sends what we give it, which is the point here.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
  timeoutMs?: number;
}

/** status 0: no answer (`error` says why); -1: node:http refused to send the request. */
export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
  error?: string;
  retryable?: boolean;
}

/** `origin` is http://127.0.0.1:PORT. */
export function send(origin: string, options: RawRequest): Promise<RawResponse> {
  return sendOnce(origin, options, agent).then((res) =>
    // Node's documented keep-alive race: the server closed an idle kept-alive
    // socket just as we reused it. Only that case is retried, once, on a new
    // connection; a server that drops a fresh connection is still reported.
    res.retryable ? sendOnce(origin, options, false) : res,
  );
}

function sendOnce(
  origin: string,
  { method = 'GET', path, headers = {}, body, timeoutMs = 15_000 }: RawRequest,
  viaAgent: http.Agent | false,
): Promise<RawResponse> {
  const url = new URL(origin);
  const started = performance.now();
  // node:http frames a GET/DELETE/OPTIONS body with nothing unless told its length.
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
    headers = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  }
  return new Promise((resolve) => {
    let settled = false;
    const done = (value: Omit<RawResponse, 'ms'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...value, ms: performance.now() - started });
    };
    let req: http.ClientRequest;
    try {
      req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent: viaAgent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', (err) =>
          done({ status: 0, headers: {}, body: Buffer.alloc(0), error: `response: ${err.message}` }),
        );
      });
    } catch (err) {
      // node:http refuses this request before sending (e.g. a bad header character): not a server finding.
      return done({ status: -1, headers: {}, body: Buffer.alloc(0), error: `not sendable: ${(err as Error).message}` });
    }
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({
        status: 0,
        headers: {},
        body: Buffer.alloc(0),
        error: err.message,
        retryable: req.reusedSocket && (err.code === 'ECONNRESET' || err.message === 'socket hang up'),
      }),
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.end(body);
  });
}

export interface JsonOptions {
  token?: string | undefined;
  body?: unknown;
}

/**
 * A JSON request; the answer's `json` is what the caller expects of this
 * route (`T`), or null when the body was not JSON.
 */
export async function json<T = unknown>(
  origin: string,
  method: string,
  path: string,
  { token, body }: JsonOptions = {},
): Promise<RawResponse & { json: T | null }> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: string | undefined;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await send(origin, { method, path, headers, body: payload });
  let parsed: T | null = null;
  try {
    parsed = JSON.parse(res.body.toString('utf8')) as T;
  } catch {
    // not JSON
  }
  return { ...res, json: parsed };
}

/** Like `json`, but anything other than `expected` throws with the answer. */
export async function must<T = unknown>(
  origin: string,
  method: string,
  path: string,
  expected: number,
  options?: JsonOptions,
): Promise<T> {
  const res = await json<T>(origin, method, path, options);
  if (res.status !== expected) {
    throw new Error(
      `${method} ${path}: expected ${expected}, got ${res.status} ${res.error ?? ''} ${res.body.toString('utf8').slice(0, 300)}`,
    );
  }
  return res.json as T;
}

/** A multipart/form-data body with one part, built by hand so that file names and part types can be anything. */
export function multipart(
  bytes: Uint8Array,
  { field = 'file', filename = 'image.png', type = 'application/octet-stream' } = {},
): { body: Buffer; contentType: string } {
  const boundary = `----reliability${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    'latin1',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, Buffer.from(bytes), tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export function closeAgent(): void {
  agent.destroy();
}
