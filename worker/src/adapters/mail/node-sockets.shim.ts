import net from 'node:net';
import tls from 'node:tls';

/**
 * `cloudflare:sockets` for Node, the subset worker-mailer 1.x calls:
 * `connect({ hostname, port }, { secureTransport })` and, on the socket,
 * `readable` / `writable` (web streams), `opened`, `closed`, `close()` and
 * `startTls()`. The Node build and the vitest `node` project alias
 * `cloudflare:sockets` to this file.
 *
 * Deliberate differences from workerd:
 * - When the peer ends the connection, `readable` errors (after handing out
 *   what was already received) instead of closing. worker-mailer reads in a
 *   loop that skips empty reads, so a closed stream would spin the event
 *   loop forever; an error ends that loop.
 * - An idle socket is destroyed after five minutes. worker-mailer does not
 *   close its socket when the SMTP greeting or AUTH fails; in workerd the
 *   request's end cleans that up, in Node this timeout does.
 */
export interface SocketAddress {
  hostname: string;
  port: number;
}

export interface SocketOptions {
  secureTransport?: 'off' | 'on' | 'starttls';
  allowHalfOpen?: boolean;
}

export interface SocketInfo {
  remoteAddress?: string;
  localAddress?: string;
}

export interface Socket {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  readonly opened: Promise<SocketInfo>;
  readonly closed: Promise<void>;
  close(): Promise<void>;
  startTls(options?: { expectedServerHostname?: string }): Socket;
}

const IDLE_TIMEOUT_MS = 5 * 60_000;
const CLOSE_GRACE_MS = 1_000;

export function connect(address: string | SocketAddress, options: SocketOptions = {}): Socket {
  const { hostname, port } = typeof address === 'string' ? parseAddress(address) : address;
  const mode = options.secureTransport ?? 'off';
  if (mode === 'on') {
    return wrap(tls.connect({ host: hostname, port, servername: sni(hostname) }), 'secureConnect', hostname, false);
  }
  return wrap(net.connect({ host: hostname, port }), 'connect', hostname, mode === 'starttls');
}

function wrap(
  socket: net.Socket,
  readyEvent: 'connect' | 'secureConnect',
  hostname: string,
  canStartTls: boolean,
): Socket {
  let failure: Error | undefined;
  socket.on('error', (error) => {
    failure = error;
  });
  socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy(new Error('Socket idle for too long')));

  const opened = new Promise<SocketInfo>((resolve, reject) => {
    socket.once(readyEvent, () => resolve({ remoteAddress: socket.remoteAddress, localAddress: socket.localAddress }));
    socket.once('error', reject);
    socket.once('close', () => reject(failure ?? new Error('Socket closed before it opened')));
  });
  const closed = new Promise<void>((resolve, reject) => {
    socket.once('close', () => (failure ? reject(failure) : resolve()));
  });
  // Callers may never look at these; a rejection nobody awaits must not crash the process.
  opened.catch(() => undefined);
  closed.catch(() => undefined);

  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let finished = false;
  let peerEnded = false;
  const fail = (error: Error) => {
    if (finished) return;
    finished = true;
    controller.error(error);
  };
  const onData = (chunk: Buffer) => {
    if (finished) return;
    controller.enqueue(new Uint8Array(chunk));
    if ((controller.desiredSize ?? 0) <= 0) socket.pause();
  };
  const onEnd = () => {
    peerEnded = true;
    // Only error once everything received has been read (pull() finishes the job).
    if ((controller.desiredSize ?? 0) > 0) fail(new Error('Connection closed by the server'));
  };
  const onClose = () => fail(failure ?? new Error('Connection closed'));

  const readable = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      socket.on('data', onData);
      socket.on('end', onEnd);
      socket.on('close', onClose);
    },
    pull() {
      if (peerEnded) fail(new Error('Connection closed by the server'));
      else socket.resume();
    },
    cancel() {
      finished = true;
      socket.destroy();
    },
  });

  const writable = new WritableStream<Uint8Array>({
    write(chunk) {
      return new Promise<void>((resolve, reject) => {
        socket.write(chunk, (error) => (error ? reject(error) : resolve()));
      });
    },
    close() {
      return new Promise<void>((resolve) => socket.end(() => resolve()));
    },
    abort() {
      socket.destroy();
    },
  });

  return {
    readable,
    writable,
    opened,
    closed,
    close() {
      if (!socket.destroyed) {
        socket.end();
        setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
      }
      return closed.catch(() => undefined);
    },
    startTls(tlsOptions) {
      if (!canStartTls) throw new Error('startTls() needs connect(..., { secureTransport: "starttls" })');
      canStartTls = false;
      // Hand the connection over to TLS: this wrapper stops reading it.
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onClose);
      socket.setTimeout(0);
      finished = true;
      const name = tlsOptions?.expectedServerHostname ?? hostname;
      const secure = tls.connect({ socket, host: name, servername: sni(name) });
      return wrap(secure, 'secureConnect', name, false);
    },
  };
}

/** SNI carries host names only; for an IP the certificate is checked against the IP. */
function sni(hostname: string): string | undefined {
  return net.isIP(hostname) ? undefined : hostname;
}

function parseAddress(address: string): SocketAddress {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address);
  if (!match) throw new TypeError(`Invalid socket address "${address}"`);
  return { hostname: match[1] ?? '', port: Number(match[2]) };
}
