import http from 'node:http';

/**
 * POSTs a JSON body of `totalBytes` that is one huge string field, streamed
 * in 1 MiB chunks so the runner never holds it whole. The server may answer
 * (413) and close before the body is sent: that answer is what counts.
 */
export interface FloodOptions {
  path: string;
  totalBytes: number;
  field: string;
  /** Other fields of the object, written before the flooded one. */
  extra?: Record<string, unknown>;
  token?: string;
  timeoutMs?: number;
}

export interface FloodAnswer {
  status: number;
  ms: number;
  error?: string;
}

export function floodJson(
  origin: string,
  { path, totalBytes, field, extra = {}, token, timeoutMs = 60_000 }: FloodOptions,
): Promise<FloodAnswer> {
  const head = Buffer.from(`${JSON.stringify(extra).slice(0, -1)}${Object.keys(extra).length ? ',' : ''}"${field}":"`);
  const tail = Buffer.from('"}');
  const fill = Math.max(0, totalBytes - head.length - tail.length);
  const chunk = Buffer.alloc(1 << 20, 'x');
  const url = new URL(origin);
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (value: Omit<FloodAnswer, 'ms'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...value, ms: performance.now() - started });
    };
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(head.length + fill + tail.length),
    };
    if (token) headers.authorization = `Bearer ${token}`;
    const req = http.request(
      { host: url.hostname, port: url.port, method: 'POST', path, headers, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => done({ status: res.statusCode ?? 0 }));
        res.on('error', (err) => done({ status: res.statusCode ?? 0, error: err.message }));
      },
    );
    req.on('error', (err) => done({ status: 0, error: err.message }));
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    (async () => {
      const write = (b: Buffer) => (req.write(b) ? Promise.resolve() : new Promise<void>((r) => req.once('drain', r)));
      await write(head);
      for (let left = fill; left > 0 && !settled && !req.destroyed; left -= chunk.length) {
        await write(left >= chunk.length ? chunk : chunk.subarray(0, left));
      }
      if (!req.destroyed) req.end(tail);
    })().catch(() => undefined);
  });
}
