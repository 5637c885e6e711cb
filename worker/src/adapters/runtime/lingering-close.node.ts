import { type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Bounds of a lingering close. Time: a client that reads while it sends (any
 * HTTP client library, browsers, curl) has the answer within a round trip;
 * 5 s is nginx's `lingering_timeout` and leaves room for a slow link. Bytes:
 * discarding runs through Node's HTTP parser on the main thread, about
 * 1-2 ms of CPU per MiB measured here, so 64 MiB (what @hono/node-server
 * drains for a keep-alive connection) caps one refusal at ~0.1 s of CPU
 * however fast the client sends. Sockets: each holds a descriptor and its
 * kernel buffers; past 256 at once a refusal closes at once (the old
 * behaviour: the answer may be lost, the server stays bounded).
 */
export const LINGER = { ms: 5_000, bytes: 64 * 2 ** 20, sockets: 256, checkMs: 50 };

const lingering = new Set<Socket>();
/** How many sockets are draining now (the bound is tested through it). */
export const lingeringSockets = (): number => lingering.size;

/** A request whose body has framing (a length or chunks) and has not all arrived. */
function bodyStillComing(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Half-closes `socket` after its last answer and reads on, discarding, until
 * the client closes, the body has all arrived, or a bound is reached. Never
 * blocks: the reading is Node's own (its parser hands body chunks to a
 * request nobody listens to), only a timer is added.
 */
function lingeringClose(socket: Socket, req: IncomingMessage): void {
  if (lingering.has(socket) || socket.destroyed) return;
  if (lingering.size >= LINGER.sockets) {
    socket.destroy();
    return;
  }
  lingering.add(socket);
  const startBytes = socket.bytesRead;
  const started = Date.now();
  // One timer for both bounds: the body is consumed by the native parser,
  // so no 'data' event tells how much came; bytesRead does. Past a bound
  // the socket goes at once, answer flushed or not: the client had its turn.
  const check = setInterval(() => {
    if (Date.now() - started >= LINGER.ms || socket.bytesRead - startBytes > LINGER.bytes) socket.destroy();
  }, LINGER.checkMs);
  check.unref();
  socket.once('close', () => {
    clearInterval(check);
    lingering.delete(socket);
  });
  // The whole body came and the answer is flushed: nothing unread is left
  // to make the kernel reset, so closing now is clean.
  const whenDrained = () => {
    if (req.complete && socket.writableFinished) socket.destroy();
  };
  req.once('end', whenDrained);
  socket.once('finish', whenDrained);
  // The answer is out, so nothing may still want the body: drop whatever
  // reads it (@hono/node-server's web-stream bridge stops at its own small
  // buffer and so stops the socket) and let the rest flow to nowhere.
  req.removeAllListeners('data');
  req.resume();
  // The FIN goes after the answer; the read side stays open (the HTTP
  // server's sockets allow half-open), and a client FIN ends it all.
  socket.end();
  whenDrained();
}

/**
 * The ServerResponse of the Node server (`createServer({ ServerResponse })`,
 * Node's documented extension point). An answer that starts while the
 * request body is still arriving — a 413 from its Content-Length, a 401 or
 * 429 before the body is read, a chunked body stopped at its limit — says
 * `Connection: close` and ends with a lingering close (RFC 9112 §9.6)
 * instead of Node's immediate one.
 *
 * Why: with `Connection: close` Node destroys the socket as soon as the
 * answer is written (`socket.destroySoon()` in lib/_http_server.js; Node has
 * no lingering close, nodejs/node#36205). Closing a socket with unread bytes
 * makes the kernel send RST, and a client still writing its body then sees
 * EPIPE/ECONNRESET and may lose the answer already sent (the reliability
 * run's 300 MiB POST: 13 of 30 got no answer). @hono/node-server drains
 * such a body for keep-alive connections but for 500 ms, then does the same.
 */
export class LingeringResponse extends ServerResponse<IncomingMessage> {
  override writeHead(
    statusCode: number,
    message?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    const socket = this.socket;
    if (!this.headersSent && socket && bodyStillComing(this.req)) {
      // The connection cannot carry another request before this body is
      // read, and it will not be read: say so, then close it gently.
      this.setHeader('Connection', 'close');
      const req = this.req;
      // Node ends a `Connection: close` answer with destroySoon(); this
      // socket carries no other request, so its own copy is replaced. The
      // 'finish' listener covers a Node that would only end() it.
      Object.defineProperty(socket, 'destroySoon', { value: () => lingeringClose(socket, req), configurable: true });
      this.once('finish', () => lingeringClose(socket, req));
    }
    return typeof message === 'string'
      ? super.writeHead(statusCode, message, headers)
      : super.writeHead(statusCode, message);
  }
}
