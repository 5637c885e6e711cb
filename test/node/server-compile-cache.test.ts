import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { startServer } from '../support/server-process.js';

/**
 * The server bundle's compile cache (worker/src/entry.boot.ts): written once
 * the server listens, so that a server that is killed still leaves it for
 * the next start, and only in a folder no other user can write to.
 */
describe('the Node server’s compile cache', () => {
  let root: string;
  const uid = process.getuid!();
  beforeAll(async () => {
    await buildNode();
    root = await mkdtemp(path.join(tmpdir(), 'cms-compile-cache-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** Starts the server with its own temp folder, answers one request, and kills it (no exit handlers run). */
  async function startAndKill(name: string, env: Record<string, string> = {}) {
    const dir = path.join(root, name);
    const tmp = path.join(dir, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const server = await startServer(dir, { TMPDIR: tmp, ...env });
    // The cache is flushed in the turn of the loop that writes the "listening" line, synchronously,
    // before the server reads another request: once /readyz is answered, it has been written or skipped.
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    await server.stop('SIGKILL');
    return path.join(tmp, `edge-cms-compile-cache-${uid}`);
  }

  const entries = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);

  it('is written in a private folder once the server listens, even if it is killed afterwards', async () => {
    const cache = await startAndKill('written');
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    expect(entries(cache).length).toBeGreaterThan(0);
  });

  it('is not used in a folder others may write to', async () => {
    const shared = path.join(root, 'shared/tmp', `edge-cms-compile-cache-${uid}`);
    mkdirSync(shared, { recursive: true });
    chmodSync(shared, 0o777);
    const cache = await startAndKill('shared');
    expect(cache).toBe(shared);
    expect(entries(cache)).toEqual([]);
  });

  it('is not written with NODE_DISABLE_COMPILE_CACHE', async () => {
    const cache = await startAndKill('disabled', { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(existsSync(cache)).toBe(false);
  });
});
