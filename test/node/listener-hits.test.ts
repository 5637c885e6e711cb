import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { registerVerifiedOwner, type ServerProcess, startServer } from '../support/server-process.js';

/**
 * The Node server answers a read-cache hit without an Origin in its
 * listener, before the app (http/middleware/public-read-cache.ts,
 * listenerHits): as a real process, such a hit must be the answer it
 * stores, header for header, with its own id and access line, a 304 for
 * its ETag, and gone after a write.
 */
describe('read-cache hits in the Node listener', () => {
  let cwd: string;
  let server: ServerProcess;
  let token: string;
  const json = (method: string, body?: unknown) => ({
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

  beforeAll(async () => {
    await buildNode();
    cwd = await mkdtemp(path.join(tmpdir(), 'cms-listener-hits-'));
    server = await startServer(cwd, {});
    token = await registerVerifiedOwner(server.url, server.output);
  });
  afterAll(async () => {
    await server?.stop('SIGTERM');
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  const headersOf = (res: Response) =>
    [...res.headers]
      .filter(([name]) => name !== 'x-request-id' && name !== 'date' && name !== 'keep-alive')
      .sort(([a], [b]) => a.localeCompare(b));

  it('answers a repeated anonymous read as the app answered it, then a write ends it', async () => {
    const created = await fetch(`${server.url}/v1/articles`, json('POST', { title: 'Held in memory' }));
    expect(created.status).toBe(201);
    const { article } = (await created.json()) as { article: { id: string } };
    expect((await fetch(`${server.url}/v1/articles/${article.id}/publish`, json('POST'))).status).toBe(200);

    const url = `${server.url}/v1/articles/${article.id}`;
    const miss = await fetch(url);
    const missBody = await miss.text();
    const linesBefore = server.output().split('\n').length;
    const hit = await fetch(url);
    expect(hit.status).toBe(200);
    expect(await hit.text()).toBe(missBody);
    expect(headersOf(hit)).toEqual(headersOf(miss));
    expect(hit.headers.get('x-request-id')).not.toBe(miss.headers.get('x-request-id'));
    // Its access line: the catch-all route, as every answer no route gave.
    await expect
      .poll(() =>
        server
          .output()
          .split('\n')
          .slice(linesBefore - 1)
          .join('\n'),
      )
      .toContain(`"requestId":"${hit.headers.get('x-request-id')}"`);
    expect(server.output()).toMatch(
      new RegExp(`"requestId":"${hit.headers.get('x-request-id')}"[^\\n]*"route":"/\\*"[^\\n]*"status":200`),
    );

    const etag = hit.headers.get('etag') ?? '';
    const notModified = await fetch(url, { headers: { 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe(etag);

    const patched = await fetch(`${server.url}/v1/articles/${article.id}`, json('PATCH', { title: 'Changed' }));
    expect(patched.status).toBe(200);
    const after = await fetch(url);
    expect(((await after.json()) as { article: { title: string } }).article.title).toBe('Changed');
    expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(200);
  });
});
