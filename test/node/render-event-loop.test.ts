import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { failedStart, type ServerProcess, startServer } from '../support/server-process.js';

/** The audit's input: emphasis delimiters without closers, the costliest Markdown per byte (seconds per MiB). */
const hostile = (bytes: number) => '*_'.repeat(bytes / 2);
const MiB = 2 ** 20;
/**
 * /healthz answers, each asked after the previous one answered, that must
 * come while one create is still unanswered. Together far longer than reading
 * and parsing the create's 1 MiB body, so they cannot all fall before its
 * render starts; a render on the event loop would hold every one of them.
 */
const ANSWERS_WHILE_PENDING = 200;

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely, as in the API contracts
type Json = Record<string, any>;

/** The built server (dist/node/html-render-worker.mjs beside it) with a registered owner. */
async function serverWith(cwd: string, env: Record<string, string>) {
  const server = await startServer(cwd, { JWT_SECRET: 'render-event-loop-test-secret-0123456789', ...env });
  const api = async (method: string, p: string, body?: unknown, token?: string) => {
    const res = await fetch(`${server.url}${p}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const account = { email: 'owner@example.com', password: 'a long enough password' };
  expect((await api('POST', '/v1/auth/register', account)).status).toBe(201);
  const code = /verify\?code=([A-Za-z0-9_-]+)/.exec(server.output())?.[1];
  expect((await api('POST', '/v1/auth/verify', { code })).status).toBe(200);
  const token: string = (await api('POST', '/v1/auth/login', account)).body.token;
  return { server, create: (body: Json) => api('POST', '/v1/articles', body, token) };
}

describe('the Node server renders article bodies off its event loop', () => {
  let cwd: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    await buildNode();
    cwd = await mkdtemp(path.join(tmpdir(), 'cms-render-'));
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await rm(cwd, { recursive: true, force: true });
  });

  it('answers /healthz over and over while a 1 MiB hostile Markdown body renders, then stores it', async () => {
    // Bounds raised past the body, and time enough for a loaded machine: only where the render runs matters here.
    const { server, create } = await serverWith(path.join(cwd), {
      DATABASE_URL: `sqlite:${path.join(cwd, 'a.db')}`,
      STORAGE_URL: `file:${path.join(cwd, 'a-uploads')}`,
      MAX_MARKDOWN_BYTES: String(2 * MiB),
      MAX_RENDER_BYTES: String(2 * MiB),
      RENDER_TIME_LIMIT_MS: '600000',
    });
    servers.push(server);
    let answered = false;
    const created = create({ title: 'Hostile', body: hostile(MiB) }).finally(() => (answered = true));
    let whilePending = 0;
    // A fresh connection each time: the probe shares nothing with the create's.
    while (!answered && whilePending < ANSWERS_WHILE_PENDING) {
      const health = await fetch(`${server.url}/healthz`, { headers: { connection: 'close' } });
      expect(health.status).toBe(200);
      await health.arrayBuffer();
      if (!answered) whilePending++;
    }
    expect(whilePending).toBe(ANSWERS_WHILE_PENDING);
    const res = await created;
    expect(res.status).toBe(201);
    expect(res.body.article.html).toContain('<em>_</em>');
  });

  it('stops a render over RENDER_TIME_LIMIT_MS, keeps the body with its text as paragraphs, and renders the next body', async () => {
    const { server, create } = await serverWith(cwd, {
      DATABASE_URL: `sqlite:${path.join(cwd, 'b.db')}`,
      STORAGE_URL: `file:${path.join(cwd, 'b-uploads')}`,
      MAX_MARKDOWN_BYTES: String(2 * MiB),
      MAX_RENDER_BYTES: String(2 * MiB),
      RENDER_TIME_LIMIT_MS: '100',
    });
    servers.push(server);
    const stopped = await create({ title: 'Hostile', body: hostile(MiB) });
    expect(stopped.status).toBe(201);
    expect(stopped.body.article.html.startsWith('<p>*_*_')).toBe(true);
    const next = await create({ title: 'Plain', body: '*fine*' });
    expect(next.status).toBe(201);
    expect(next.body.article.html).toBe('<p><em>fine</em></p>\n');
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('keeps a hostile body over MAX_MARKDOWN_BYTES (its default) unrendered, as plain paragraphs', async () => {
    const { server, create } = await serverWith(cwd, {
      DATABASE_URL: `sqlite:${path.join(cwd, 'c.db')}`,
      STORAGE_URL: `file:${path.join(cwd, 'c-uploads')}`,
    });
    servers.push(server);
    const res = await create({ title: 'Hostile', body: hostile(3 * MiB) });
    expect(res.status).toBe(201);
    expect(res.body.article.html.startsWith('<p>*_*_')).toBe(true);
  });

  it('will not start in production without PUBLIC_URL, naming it', async () => {
    const { code, output } = await failedStart(cwd, {
      NODE_ENV: 'production',
      JWT_SECRET: 'render-event-loop-test-secret-0123456789',
      DATABASE_URL: `sqlite:${path.join(cwd, 'd.db')}`,
    });
    expect(code).not.toBe(0);
    expect(output).toContain('PUBLIC_URL: required in production');
  });
});
