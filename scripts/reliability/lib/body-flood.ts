import net from 'node:net';

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

/**
 * Over a raw socket, not http.request: a server that answers 413 early and
 * closes makes the runner's next write fail (EPIPE), and Node's HTTP client
 * then reports that error instead of the answer already received. Here the
 * answer's status line is read from whatever came back; write errors only
 * stop the writing.
 */
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
    let received = '';
    let writeError: string | undefined;
    const done = (value: Omit<FloodAnswer, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...value, ms: performance.now() - started });
    };
    const statusOf = () => /^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1];
    const socket = net.connect(Number(url.port), url.hostname);
    const timer = setTimeout(() => done({ status: 0, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
    socket.on('data', (d) => {
      received += d.toString('latin1');
      // The status line and headers are enough: the body is the error JSON.
      if (received.includes('\r\n\r\n') && statusOf()) done({ status: Number(statusOf()) });
    });
    socket.on('error', (err) => {
      writeError ??= err.message;
    });
    socket.on('close', () => {
      const status = statusOf();
      done(status ? { status: Number(status) } : { status: 0, error: writeError ?? 'closed without an answer' });
    });
    const lines = [
      `POST ${path} HTTP/1.1`,
      `Host: ${url.host}`,
      'Content-Type: application/json',
      `Content-Length: ${head.length + fill + tail.length}`,
      'Connection: close',
      ...(token ? [`Authorization: Bearer ${token}`] : []),
    ];
    (async () => {
      const write = (b: Buffer) =>
        socket.write(b) ? Promise.resolve() : new Promise<void>((r) => socket.once('drain', () => r()));
      await write(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`));
      await write(head);
      for (let left = fill; left > 0 && !settled && !socket.destroyed; left -= chunk.length) {
        await write(left >= chunk.length ? chunk : chunk.subarray(0, left));
      }
      if (!socket.destroyed) socket.write(tail);
    })().catch(() => undefined);
  });
}
