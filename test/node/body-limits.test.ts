import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { runBodyLimitsApiContract } from '../contract/api-body-limits.contract.js';
import { nodeHarness } from '../support/node-harness.js';
import { type ServerProcess, startServer } from '../support/server-process.js';

runBodyLimitsApiContract('Node, SQLite, local directory', () => nodeHarness({ db: 'sqlite', storage: 'local' }));

/**
 * Sends a request head, then up to `bodyBytes` of body (chunked when asked)
 * until the server answers; resolves with the status line and how much body
 * went out before the answer came.
 */
function floodRequest(url: string, head: string, bodyBytes: number, chunked: boolean) {
  const { hostname, port } = new URL(url);
  return new Promise<{ status: number; sent: number; ms: number }>((resolve, reject) => {
    const started = Date.now();
    let sent = 0;
    let answered = false;
    let reply = '';
    const piece = Buffer.alloc(256 * 1024, 0x61);
    const socket = connect(Number(port), hostname, () => {
      socket.write(head);
      const pump = () => {
        while (!answered && sent < bodyBytes) {
          const frame = chunked
            ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
            : piece;
          sent += piece.length;
          if (!socket.write(frame)) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    socket.setEncoding('latin1');
    socket.on('data', (d) => {
      reply += d;
      const line = /^HTTP\/1\.1 (\d{3})/.exec(reply);
      if (line && !answered) {
        answered = true;
        resolve({ status: Number(line[1]), sent, ms: Date.now() - started });
        socket.destroy();
      }
    });
    socket.on('error', (err) => (answered ? undefined : reject(err)));
  });
}

describe('body limits on the real Node server', () => {
  let cwd: string;
  let server: ServerProcess;
  const FLOOD = 256 * 1024 * 1024;
  beforeAll(async () => {
    await buildNode();
    cwd = await mkdtemp(path.join(tmpdir(), 'cms-body-limits-'));
    server = await startServer(cwd, { JWT_SECRET: 'body-limits-test-secret-0123456789abcdef' });
  });
  afterAll(async () => {
    await server?.stop();
    await rm(cwd, { recursive: true, force: true });
  });

  const head = (extra: string) =>
    `POST /v1/auth/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}\r\n`;

  it('answers a 256 MiB Content-Length with 413 before the body is sent', async () => {
    const res = await floodRequest(server.url, head(`Content-Length: ${FLOOD}\r\n`), FLOOD, false);
    expect(res.status).toBe(413);
    expect(res.sent).toBeLessThan(FLOOD / 4);
  });

  it('answers a chunked flood with 413 once the limit is passed, long before it ends', async () => {
    const res = await floodRequest(server.url, head('Transfer-Encoding: chunked\r\n'), FLOOD, true);
    expect(res.status).toBe(413);
    expect(res.sent).toBeLessThan(FLOOD / 4);
  });
});
