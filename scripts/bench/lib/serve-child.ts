import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

/**
 * A bench server's listening and stopping, the way the real server does
 * them: 127.0.0.1 on PORT from the environment, one `listening` line on
 * stdout, a graceful close on SIGTERM or SIGINT (cut short after 2 s).
 */
export function serveBenchApp(app: Pick<Hono, 'fetch'>): void {
  // serve() makes a plain node:http server unless told otherwise.
  const server = serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' }, (info) => {
    process.stdout.write(`${JSON.stringify({ message: 'listening', port: info.port })}\n`);
  }) as Server;
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/** Log lines gathered and written to stdout once per turn of the event loop, as the server writes its own (entry.node.ts). */
export function linesPerTurn(): (line: string) => void {
  let pending = '';
  const flush = () => {
    process.stdout.write(pending);
    pending = '';
  };
  return (line) => {
    if (pending === '') setImmediate(flush);
    pending += `${line}\n`;
  };
}
