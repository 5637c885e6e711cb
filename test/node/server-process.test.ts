import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { failedStart, SERVER_BUNDLE, startServer } from '../support/server-process.js';

/**
 * What `npm start` runs, as a real process in an empty directory: defaults
 * under ./data, migrations applied, the secret generated and kept, e-mail
 * links in the log, graceful stop on SIGTERM and SIGINT.
 */
describe('the Node server process', () => {
  let cwd: string;
  beforeAll(async () => {
    await buildNode();
    expect(existsSync(SERVER_BUNDLE)).toBe(true);
    cwd = await mkdtemp(path.join(tmpdir(), 'cms-server-'));
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it('starts on the embedded defaults, keeps its secret across restarts, and stops gracefully', async () => {
    const first = await startServer(cwd, {});
    expect(existsSync(path.join(cwd, 'data/cms.db'))).toBe(true);
    const secretFile = path.join(cwd, 'data/jwt-secret');
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    const secret = readFileSync(secretFile, 'utf8');

    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    const home = await fetch(`${first.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-security-policy')).toContain("object-src 'none'");

    const reg = await fetch(`${first.url}/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'first@example.com', password: 'a long enough password' }),
    });
    expect(reg.status).toBe(201);
    const { token } = (await reg.json()) as { token: string };
    // The log mailer prints the link a first-run user opens: without
    // PUBLIC_URL, at the address this server really answers on (its HOST and
    // PORT, here 127.0.0.1 and a free port, not 8787).
    const link = /(http:\/\/[^\s"]+)\/verify\?code=([A-Za-z0-9_-]+)/.exec(first.output());
    expect(link?.[1]).toBe(first.url);
    expect(first.url).not.toContain(':8787');
    const code = link?.[2];
    expect(code).toBeTruthy();
    const verified = await fetch(`${first.url}/v1/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(((await verified.json()) as { user: { role: string } }).user.role).toBe('owner');
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(first.output()).toContain('"stopping"');
    // JSON lines only, the log mailer's e-mail included, and one access line per request.
    const records = first
      .output()
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        expect(() => JSON.parse(line), line).not.toThrow();
        return JSON.parse(line) as Record<string, unknown>;
      });
    expect(records.filter((r) => r.message === 'request' && r.route === '/v1/auth/register')).toEqual([
      expect.objectContaining({ method: 'POST', status: 201, requestId: reg.headers.get('x-request-id') }),
    ]);
    expect(records.find((r) => r.to === 'first@example.com')).toMatchObject({
      requestId: reg.headers.get('x-request-id'),
    });

    const second = await startServer(cwd, {});
    expect(readFileSync(secretFile, 'utf8')).toBe(secret);
    const me = await fetch(`${second.url}/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(await second.stop('SIGINT')).toBe(0);
  });

  it('refuses to start on a bad setting, naming it', async () => {
    const { code, output } = await failedStart(cwd, { MAX_UPLOAD_BYTES: 'lots', PUBLIC_URL: 'ftp://x' });
    expect(code).toBe(2);
    expect(output).toContain('MAX_UPLOAD_BYTES');
    expect(output).toContain('PUBLIC_URL');
  });

  it('reads .env from its working directory, the real environment winning', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cms-dotenv-'));
    try {
      writeFileSync(path.join(dir, '.env'), '# a comment\nMAX_UPLOAD_BYTES=lots\nPUBLIC_URL="http://dotenv.example"\n');
      const refused = await failedStart(dir, {});
      expect(refused.code).toBe(2);
      expect(refused.output).toContain('MAX_UPLOAD_BYTES');
      // The environment's value wins over the file's bad one; the file's PUBLIC_URL still applies.
      const server = await startServer(dir, { MAX_UPLOAD_BYTES: '2048' });
      try {
        const reg = await fetch(`${server.url}/v1/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'dotenv@example.com', password: 'a long enough password' }),
        });
        expect(reg.status).toBe(201);
      } finally {
        await server.stop();
      }
      expect(server.output()).toContain('http://dotenv.example/verify?code=');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports an unreachable database at start-up without a stack trace', async () => {
    const { code, output } = await failedStart(cwd, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(code).toBe(1);
    expect(output).toContain('Start-up failed');
    expect(output).not.toContain('nobody@');
  });
});

describe('the Node server’s client address', () => {
  let cwd: string;
  beforeAll(async () => {
    await buildNode();
    cwd = await mkdtemp(path.join(tmpdir(), 'cms-peer-'));
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  const login = (url: string, headers: Record<string, string> = {}) =>
    fetch(`${url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong' }),
    });

  it('is the socket peer: forged headers from a direct client change nothing', async () => {
    const server = await startServer(cwd, { RATE_LIMIT_LOGIN: '3/900' });
    try {
      for (let i = 0; i < 3; i++)
        expect((await login(server.url, { 'x-real-ip': `10.0.0.${i}`, 'x-forwarded-for': `10.1.0.${i}` })).status).toBe(
          401,
        );
      const limited = await login(server.url, { 'x-real-ip': '10.0.0.99' });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await server.stop();
    }
  });

  it('is what a trusted proxy appended to X-Forwarded-For: ten rotated spoofed values stay in one budget', async () => {
    // The test plays the proxy on 127.0.0.1 (trusted as a CIDR range); the
    // client forges X-Real-IP and the front of X-Forwarded-For each time.
    const server = await startServer(cwd, { RATE_LIMIT_LOGIN: '3/900', TRUST_PROXY: '127.0.0.0/8, ::1' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await login(server.url, {
          'x-real-ip': `198.51.100.${i}`,
          'x-forwarded-for': `192.0.2.${i}, 203.0.113.7`,
        });
        statuses.push(res.status);
        if (res.status === 429) expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      }
      expect(statuses).toEqual([401, 401, 401, ...Array(7).fill(429)]);
      // Another client behind the same proxy has a budget of its own.
      expect((await login(server.url, { 'x-forwarded-for': '203.0.113.8' })).status).toBe(401);
    } finally {
      await server.stop();
    }
  });

  it('is X-Real-IP only when TRUST_PROXY_HEADER says the trusted proxy sets it', async () => {
    const server = await startServer(cwd, {
      RATE_LIMIT_LOGIN: '3/900',
      TRUST_PROXY: '127.0.0.1',
      TRUST_PROXY_HEADER: 'x-real-ip',
    });
    try {
      for (let i = 0; i < 3; i++) expect((await login(server.url, { 'x-real-ip': '10.0.0.1' })).status).toBe(401);
      expect((await login(server.url, { 'x-real-ip': '10.0.0.1' })).status).toBe(429);
      expect((await login(server.url, { 'x-real-ip': '10.0.0.2' })).status).toBe(401);
    } finally {
      await server.stop();
    }
  });
});
