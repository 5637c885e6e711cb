import { existsSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { failedStart, startServer } from '../support/server-process.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;

async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
}

/**
 * cms.db, its -wal/-shm and activity.ndjson were created 0644 in
 * a 0755 directory (the database holds password hashes and every draft), and
 * a short or empty data/jwt-secret was used as the signing key.
 */
describe('the data directory on disk (Node server process)', () => {
  let cwd: string;
  let restoreUmask: (() => void) | undefined;
  beforeAll(async () => {
    // A permissive umask, as most systems have: the server must not rely on a strict one.
    try {
      const previous = process.umask(0o022);
      restoreUmask = () => process.umask(previous);
    } catch {
      // Worker threads cannot set it: then the inherited one must be permissive for this test to mean anything.
      expect(process.umask() & 0o044).toBe(0);
    }
    await buildNode();
  });
  beforeEach(async () => {
    cwd = await mkdtemp(path.join(tmpdir(), 'cms-data-modes-'));
  });
  afterEach(async () => {
    await rm(cwd, { recursive: true, force: true });
  });
  afterAll(() => restoreUmask?.());

  it('creates the data directory 0700 and every file in it 0600, SQLite’s own -wal and -shm included', async () => {
    const server = await startServer(cwd, {});
    try {
      const reg = await fetch(`${server.url}/v1/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'modes@example.com', password: 'a long enough password' }),
      });
      expect(reg.status).toBe(201);
      const data = path.join(cwd, 'data');
      await until(() => existsSync(path.join(data, 'activity.ndjson')));
      expect(modeOf(data)).toBe(0o700);
      for (const name of ['cms.db', 'cms.db-wal', 'cms.db-shm', 'activity.ndjson', 'jwt-secret']) {
        expect(modeOf(path.join(data, name)), name).toBe(0o600);
      }
    } finally {
      await server.stop();
    }
  });

  it('takes other users’ access away from the files an older version left readable', async () => {
    const data = path.join(cwd, 'data');
    await mkdir(data, { mode: 0o755 });
    await writeFile(path.join(data, 'jwt-secret'), `${'k'.repeat(48)}\n`, { mode: 0o644 });
    await chmod(path.join(data, 'jwt-secret'), 0o644);
    const first = await startServer(cwd, {});
    await first.stop();
    for (const name of ['cms.db', 'cms.db-wal', 'cms.db-shm', 'jwt-secret']) {
      const file = path.join(data, name);
      if (existsSync(file)) await chmod(file, 0o644);
    }
    const second = await startServer(cwd, {});
    try {
      for (const name of ['cms.db', 'jwt-secret']) expect(modeOf(path.join(data, name)), name).toBe(0o600);
    } finally {
      await second.stop();
    }
  });

  it.each([
    ['a short key', 'too-short-secret', 'a 16-character key'],
    ['an empty file', '', 'no key'],
    ['only whitespace', ' \n\n', 'no key'],
  ])('refuses to start on a data/jwt-secret holding %s, saying why', async (_, content, words) => {
    await mkdir(path.join(cwd, 'data'), { mode: 0o700 });
    await writeFile(path.join(cwd, 'data/jwt-secret'), content, { mode: 0o600 });
    const { code, output } = await failedStart(cwd, {});
    expect(code).toBe(2);
    expect(output).toContain('jwt-secret');
    expect(output).toContain(words);
    expect(output).toContain('at least 32 characters');
    if (content.trim()) expect(output).not.toContain(content.trim());
  });

  it('refuses a JWT_SECRET shorter than 32 characters, naming the setting', async () => {
    const { code, output } = await failedStart(cwd, { JWT_SECRET: 'short-secret' });
    expect(code).toBe(2);
    expect(output).toContain('JWT_SECRET');
  });
});
