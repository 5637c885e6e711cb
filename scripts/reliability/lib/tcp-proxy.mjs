import net from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a dependency (PostgreSQL, s3rver, an
 * SMTP server) that the fault runs can cut and restore. Cutting resets every
 * open connection and every new one, which is what a dead host or a dropped
 * network looks like to the server; the shared database itself is never
 * touched, so nobody else on the machine notices.
 */
export async function startTcpProxy(targetPort, targetHost = '127.0.0.1') {
  const sockets = new Set();
  let cut = false;
  const server = net.createServer((client) => {
    if (cut) return client.resetAndDestroy();
    const upstream = net.connect(targetPort, targetHost);
    sockets.add(client).add(upstream);
    const drop = () => {
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: server.address().port,
    get connections() {
      return sockets.size / 2;
    },
    /** Resets every connection now and refuses new ones until `restore`. */
    cut() {
      cut = true;
      for (const s of sockets) s.resetAndDestroy();
      sockets.clear();
    },
    restore() {
      cut = false;
    },
    close() {
      this.cut();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
