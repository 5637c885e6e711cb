import { connect } from 'node:net';

/** What came back for one flooded request, read off the raw socket. */
export interface FloodReply {
  /** 0 when no status line arrived. */
  status: number;
  headers: Record<string, string>;
  /** The answer's body; complete only when `complete`. */
  body: string;
  /** Status line, headers and a body of the stated Content-Length all arrived. */
  complete: boolean;
  /** Body bytes written before the socket closed or the answer was whole. */
  sent: number;
  /** The socket error seen, if any (EPIPE, ECONNRESET): the writing stops there. */
  error: string | undefined;
  /** How the connection ended: the answer was whole, or the server closed it (FIN, RST). */
  ended: 'answered' | 'closed';
  /** Milliseconds from the connect to the whole answer (NaN if it never came) and to the end of the socket. */
  answerMs: number;
  endMs: number;
}

export interface FloodOptions {
  /** Request line and headers, without the blank line that ends them. */
  head: string;
  /** Body bytes to send at most. */
  bodyBytes: number;
  /** Keep writing after the whole answer and the server's FIN have arrived (a client that never listens); default false. */
  ignoreAnswer?: boolean;
  /** Send `bytes` every `everyMs` instead of as fast as the socket takes them (a slow client). */
  pace?: { bytes: number; everyMs: number };
  timeoutMs?: number;
}

/**
 * A client as plain as a script's: it sends the head, then body bytes as fast
 * as the socket takes them, reading whatever comes back meanwhile. Over a raw
 * socket, not http.request, so that what the server did to the connection —
 * an answer, a FIN, a reset — is seen as it happened, not as Node's HTTP
 * client reports it. A reset (ECONNRESET/EPIPE) stops the writing; the
 * reply is whatever was read by then.
 */
export function floodRequest(
  port: number,
  { head, bodyBytes, ignoreAnswer = false, pace, timeoutMs = 60_000 }: FloodOptions,
) {
  return new Promise<FloodReply>((resolve) => {
    // 1 MiB writes, as the reliability runner's: each is a burst the server
    // reads after it has answered, the case that made it reset.
    const piece = Buffer.alloc(pace?.bytes ?? 1 << 20, 0x78);
    const started = performance.now();
    let answerMs = Number.NaN;
    let raw = Buffer.alloc(0);
    let sent = 0;
    let error: string | undefined;
    let settled = false;
    const parse = () => {
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0)
        return {
          status: Number(/^HTTP\/1\.1 (\d{3})/.exec(raw.toString('latin1'))?.[1] ?? 0),
          headers: {},
          body: '',
          complete: false,
        };
      const [line = '', ...fields] = raw.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(
        fields.map((f: string) => [
          f.slice(0, f.indexOf(':')).trim().toLowerCase(),
          f.slice(f.indexOf(':') + 1).trim(),
        ]),
      );
      const body = raw.subarray(end + 4);
      const length = Number(headers['content-length'] ?? Number.NaN);
      return {
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(line)?.[1] ?? 0),
        headers,
        body: body.toString('utf8'),
        complete: body.length === length,
      };
    };
    const finish = (ended: FloodReply['ended']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parse(), sent, error, ended, answerMs, endMs: performance.now() - started });
    };
    const timer = setTimeout(() => finish('closed'), timeoutMs);
    // A client that does not listen keeps writing after the server's FIN too
    // (Node's default would end its own side then).
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: ignoreAnswer }, () => {
      socket.write(`${head}\r\n\r\n`);
      const pump = () => {
        if (pace) {
          if (settled || socket.destroyed || sent >= bodyBytes) return;
          sent += piece.length;
          socket.write(piece);
          setTimeout(pump, pace.everyMs);
          return;
        }
        while (!settled && !socket.destroyed && sent < bodyBytes) {
          const n = Math.min(piece.length, bodyBytes - sent);
          sent += n;
          if (!socket.write(n === piece.length ? piece : piece.subarray(0, n))) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    socket.on('data', (d: Buffer) => {
      raw = Buffer.concat([raw, d]);
      if (!parse().complete) return;
      if (Number.isNaN(answerMs)) answerMs = performance.now() - started;
      if (!ignoreAnswer) finish('answered');
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error ??= err.code ?? err.message;
    });
    socket.on('close', () => finish('closed'));
  });
}
