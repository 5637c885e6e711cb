import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A load balancer for tests with several server processes: each HTTP
 * request goes to the next backend in turn (per request, not per
 * connection, so consecutive requests of one client land on different
 * instances). A backend that refuses the connection (a killed instance) is
 * skipped for that request, as a balancer's health check would; any other
 * failure is a 502. Bodies are buffered: test requests are small.
 */
export interface RoundRobinProxy {
  url: string;
  /** Which backend answered each request, in order (its index in `backends`). */
  served: number[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

function forward(
  target: string,
  req: http.IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
    const out = http.request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: { ...headers, 'content-length': String(body.length) }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    out.on('error', reject);
    out.end(body);
  });
}

export async function startRoundRobinProxy(backends: () => string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const served: number[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const targets = backends();
    for (let tried = 0; tried < targets.length; tried++) {
      const index = next++ % targets.length;
      try {
        const answer = await forward(targets[index]!, req, body);
        served.push(index);
        const headers = Object.fromEntries(Object.entries(answer.headers).filter(([n]) => !HOP_BY_HOP.has(n)));
        res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) });
        res.end(answer.body);
        return;
      } catch (err) {
        if ((err as { code?: string }).code !== 'ECONNREFUSED') break;
      }
    }
    res.writeHead(502).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
