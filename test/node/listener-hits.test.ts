import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { registerVerifiedOwner, type ServerProcess, startServer } from '../support/server-process.js';

/** A real server process for the describe block: started before its tests, with a verified owner. */
function realServer(prefix: string, env: Record<string, string>) {
  const state = { cwd: '', server: undefined as unknown as ServerProcess, token: '' };
  beforeAll(async () => {
    await buildNode();
    state.cwd = await mkdtemp(path.join(tmpdir(), prefix));
    state.server = await startServer(state.cwd, env);
    state.token = await registerVerifiedOwner(state.server.url, state.server.output);
  });
  afterAll(async () => {
    await state.server?.stop('SIGTERM');
    if (state.cwd) await rm(state.cwd, { recursive: true, force: true });
  });
  const json = (method: string, body?: unknown) => ({
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${state.token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    get server() {
      return state.server;
    },
    json,
    /** A new online article's URL. */
    async published(title: string): Promise<string> {
      const created = await fetch(`${state.server.url}/v1/articles`, json('POST', { title }));
      expect(created.status).toBe(201);
      const { article } = (await created.json()) as { article: { id: string } };
      expect((await fetch(`${state.server.url}/v1/articles/${article.id}/publish`, json('POST'))).status).toBe(200);
      return `${state.server.url}/v1/articles/${article.id}`;
    },
  };
}

const headersOf = (res: Response) =>
  [...res.headers]
    .filter(([name]) => name !== 'x-request-id' && name !== 'date' && name !== 'keep-alive')
    .sort(([a], [b]) => a.localeCompare(b));

/**
 * The Node server answers a read-cache hit without an Origin in its
 * listener, before the app (http/middleware/public-read-cache.ts,
 * listenerHits): as a real process, such a hit must be the answer it
 * stores, header for header, with its own id and access line, a 304 for
 * its ETag, and gone after a write.
 */
describe('read-cache hits in the Node listener', () => {
  const live = realServer('cms-listener-hits-', {});

  it('answers a repeated anonymous read as the app answered it, then a write ends it', async () => {
    const { server, json } = live;
    const url = await live.published('Held in memory');
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

    const patched = await fetch(url, json('PATCH', { title: 'Changed' }));
    expect(patched.status).toBe(200);
    const after = await fetch(url);
    expect(((await after.json()) as { article: { title: string } }).article.title).toBe('Changed');
    expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(200);
  });
});

/**
 * Without the read cache (PUBLIC_READ_CACHE=off here; MySQL and PostgreSQL
 * always), the listener answers a conditional anonymous read whose URL the
 * instance remembers (http/middleware/conditional-reads.ts,
 * listenerConditionals): the 304 the app gave, header for header, with its
 * own id and access line, until a write moves the read generation.
 */
describe('conditional reads in the Node listener', () => {
  const live = realServer('cms-listener-conditionals-', { PUBLIC_READ_CACHE: 'off' });

  it('answers a remembered conditional read with the 304 the app gave, until a write', async () => {
    const { server, json } = live;
    const url = await live.published('Asked again');
    const etag = (await fetch(url)).headers.get('etag') ?? '';
    const conditional = () => fetch(url, { headers: { 'if-none-match': etag } });
    // The first is the route's own 304, which the instance then remembers.
    const fromApp = await conditional();
    expect(fromApp.status).toBe(304);
    const remembered = await conditional();
    expect(remembered.status).toBe(304);
    expect(await remembered.text()).toBe('');
    expect(headersOf(remembered)).toEqual(headersOf(fromApp));
    const id = remembered.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(id).not.toBe(fromApp.headers.get('x-request-id'));
    await expect
      .poll(() => server.output())
      .toMatch(new RegExp(`"requestId":"${id}"[^\\n]*"route":"/\\*"[^\\n]*"status":304`));

    expect((await fetch(url, json('PATCH', { title: 'Changed' }))).status).toBe(200);
    const after = await conditional();
    expect(after.status).toBe(200);
    expect(((await after.json()) as { article: { title: string } }).article.title).toBe('Changed');
    const next = after.headers.get('etag') ?? '';
    expect(next).not.toBe(etag);
    for (let i = 0; i < 2; i++) expect((await fetch(url, { headers: { 'if-none-match': next } })).status).toBe(304);
  });
});
