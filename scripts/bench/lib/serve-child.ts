import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import type { Context, Hono } from 'hono';
import type { FloorParts } from './floor-parts.ts';
import { loggedAnswerHeaders } from './floor-reads.ts';

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
function linesPerTurn(): (line: string) => void {
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

/**
 * The Node floors' answer to a read (floor-server.ts, service-floor-server.ts):
 * the answer's headers, a request id, a SHA-1 ETag and one access line per
 * request, gathered per turn; a 304 for a matching If-None-Match.
 */
export function floorAnswerer(parts: FloorParts) {
  const logger = parts.createJsonLogger(linesPerTurn());
  return (c: Context, text: string, route: string, started: number): Response => {
    const etag = `"${parts.sha1Digest(text)}"`;
    const headers = loggedAnswerHeaders(parts, logger, { etag, route, started });
    return c.req.header('if-none-match') === etag ? c.body(null, 304, headers) : c.body(text, 200, headers);
  };
}
