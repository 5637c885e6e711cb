import net, { type AddressInfo } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a dependency (PostgreSQL, MariaDB,
 * s3rver, an SMTP server) that tests and the fault runs can cut and restore;
 * the shared database itself is never touched, so nobody else on the machine
 * notices.
 * - `cut()`: every open connection is reset and the port stops listening, so
 *   new connections are refused — what a stopped database server looks like.
 * - `blackhole()`: connections stay open but nothing gets through, and new
 *   ones are accepted and then ignored — a dead host or a dropped network,
 *   where only the client's own timeouts help.
 * - `hangUp()`: every open connection is closed the orderly way (FIN to the
 *   client, mid-query if one is running) while new ones still get through —
 *   what a database restart or a failover does to its clients.
 * `restore()` lets new connections through again (black-holed ones are reset).
 */
export interface TcpProxy {
  port: number;
  /** Connections being forwarded now. */
  readonly open: number;
  cut(): void;
  hangUp(): void;
  blackhole(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const held = new Set<net.Socket>();
  let mode: 'open' | 'cut' | 'blackhole' = 'open';
  const server = net.createServer((client) => {
    client.on('error', () => {});
    if (mode === 'blackhole') {
      held.add(client);
      client.on('close', () => held.delete(client));
      client.resume(); // read and drop
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    const pair = { client, upstream };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', drop).on('close', drop);
    client.on('close', drop);
    client.on('data', (d: Buffer) => {
      if (mode === 'open') upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => {
      if (mode === 'open') client.write(d);
    });
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  const proxy: TcpProxy = {
    port,
    get open() {
      return pairs.size;
    },
    hangUp() {
      for (const { client, upstream } of pairs) {
        // Not through drop(): that would reset the client instead of closing it.
        upstream
          .removeAllListeners('close')
          .removeAllListeners('data')
          .removeAllListeners('error')
          .on('error', () => {});
        upstream.destroy();
        client.end();
      }
      pairs.clear();
    },
    cut() {
      mode = 'cut';
      if (server.listening) server.close();
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
      for (const s of held) s.resetAndDestroy();
    },
    blackhole() {
      mode = 'blackhole';
      for (const { client } of pairs) held.add(client);
    },
    async restore() {
      for (const s of held) s.resetAndDestroy();
      held.clear();
      mode = 'open';
      if (!server.listening) await listen(port);
    },
    close() {
      proxy.cut();
      return new Promise<void>((resolve) => {
        if (server.listening) server.close(() => resolve());
        else resolve();
      });
    },
  };
  return proxy;
}
