import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

/**
 * The benchmark's baseline: a bare Hono app on @hono/node-server, started the
 * same way as the real server (a child `node` process, 127.0.0.1, PORT from
 * the environment). It answers every GET with one fixed JSON document — the
 * file named by BASELINE_DOC, which run.ts fills with a real article response
 * so that both servers serialise and send the same number of bytes. Nothing
 * else: no middleware, no database, no logging.
 */
const port = Number(process.env.PORT);
const doc = JSON.parse(readFileSync(process.env.BASELINE_DOC, 'utf8'));

const app = new Hono();
app.get('*', (c) => c.json(doc));

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`${JSON.stringify({ message: 'listening', port: info.port })}\n`);
});

const stop = () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections?.();
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
