import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Endpoint, type WebhookReceiver } from './webhook-receiver.js';

const MAX_BODY = 1024 * 1024;

export interface ReceiverServer {
  /** A new endpoint: `http://127.0.0.1:<port>/hook/<key>`. */
  endpoint(): WebhookReceiver;
  /** The recorder itself, for a server that is driven over HTTP (the workers project). */
  byKey(key: string): Endpoint;
  url: string;
  server: Server;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error('webhook body too large for the test receiver');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A real HTTP server on 127.0.0.1 that records every POST to
 * `/hook/<key>` and answers what the test asked for. With `control`, it
 * also serves `GET /control/<key>` (the record) and `PUT /control/<key>`
 * (the statuses to answer) for tests that cannot reach it in-process.
 */
export async function startReceiver(options: { control?: boolean } = {}): Promise<ReceiverServer> {
  const endpoints = new Map<string, Endpoint>();
  const byKey = (key: string) => {
    const known = endpoints.get(key);
    if (known) return known;
    const e = new Endpoint();
    endpoints.set(key, e);
    return e;
  };
  const server = createServer(async (req, res) => {
    try {
      const [, kind, key] = (req.url ?? '').split('/');
      const body = await bodyOf(req);
      if (kind === 'hook' && key && req.method === 'POST') {
        const headers = Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
        );
        const status = byKey(key).take(headers, body);
        // 0: no answer at all, until the sender gives up (or dies).
        if (status === 0) return;
        res.statusCode = status;
        res.end();
        return;
      }
      if (options.control && kind === 'control' && key) {
        if (req.method === 'PUT') byKey(key).answer(JSON.parse(body) as number[]);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(byKey(key).log));
        return;
      }
      res.statusCode = 404;
      res.end();
    } catch {
      res.statusCode = 500;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let counter = 0;
  return {
    url,
    server,
    byKey,
    endpoint() {
      const key = `k${++counter}`;
      const e = byKey(key);
      return {
        url: `${url}/hook/${key}`,
        received: async () => [...e.log],
        answer: async (statuses) => e.answer(statuses),
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
