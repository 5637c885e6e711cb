import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { SECURITY_HEADERS } from '../../worker/src/http/middleware/security-headers.js';
import { type ServerProcess, startServer } from '../support/server-process.js';

/**
 * Found by `npm run reliability` (the fuzzer): a request @hono/node-server
 * cannot turn into a Request (a backslash in the path, a bad Host header)
 * was answered by the adapter's default, a bare 400 with no body and none
 * of the security headers. It must be the contract's 400 with every header.
 */

/** One raw HTTP/1.1 exchange: fetch and node:http would refuse or rewrite these requests. */
function rawRequest(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(head));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => (data += d));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

function parse(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [status, ...lines] = head.split('\r\n');
  const headers = new Map(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status: Number(status!.split(' ')[1]), headers, body };
}

describe('requests the Node adapter cannot parse', () => {
  let cwd: string;
  let server: ServerProcess;
  beforeAll(async () => {
    await buildNode();
    cwd = await mkdtemp(path.join(tmpdir(), 'cms-malformed-'));
    server = await startServer(cwd, { JWT_SECRET: 'malformed-request-test-secret-0123456789' });
  });
  afterAll(async () => {
    await server?.stop();
    await rm(cwd, { recursive: true, force: true });
  });

  it.each([
    [
      'a backslash in the path',
      'GET /static/uploadedImages/..\\..\\package.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    ],
    [
      'a Host header that is not a host',
      'GET /v1/articles HTTP/1.1\r\nHost: exa mple.com:80@evil\r\nConnection: close\r\n\r\n',
    ],
  ])('answers %s with the contract 400 and every security header', async (_, head) => {
    const res = parse(await rawRequest(server.url, head));
    expect(res.status).toBe(400);
    for (const [name, value] of SECURITY_HEADERS) expect(res.headers.get(name.toLowerCase())).toBe(value);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = res.body.includes('{') ? res.body.slice(res.body.indexOf('{'), res.body.lastIndexOf('}') + 1) : '';
    expect(JSON.parse(body)).toEqual({ error: { code: 'invalid_request', message: expect.any(String) } });
    // And the server keeps serving.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
