import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { registerVerifiedOwner, SERVER_BUNDLE, type ServerProcess, startServer } from '../support/server-process.js';

/**
 * What a request leaves to V8's full collections. A closure made by a
 * function that also stores it in a property (the context's `c.json`,
 * `c.header`, `c.body` wrappers were) is kept through young-generation
 * collections, and with it the whole request: the server promoted 9–12 KiB a
 * request that way, against about 0.1–0.3 KiB once the wrappers were made
 * apart (docs/benchmarks.md). A one-megabyte young generation collects
 * every few dozen requests, so a few thousand show it; V8 writes what each
 * collection promoted (`--trace-gc-nvp`) to the server's output.
 */
const REQUESTS = 1500;
const BOUND_BYTES = 2048;

describe('young-generation promotion per request on the Node server', () => {
  let cwd: string;
  let server: ServerProcess;

  beforeAll(async () => {
    await buildNode();
    cwd = await mkdtemp(path.join(tmpdir(), 'cms-young-gen-'));
    server = await startServer(cwd, { PUBLIC_READ_CACHE: 'off' }, SERVER_BUNDLE, [
      '--max-semi-space-size=1',
      '--trace-gc-nvp',
    ]);
  });
  afterAll(async () => {
    await server?.stop('SIGTERM');
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  /** Bytes promoted per request over `REQUESTS` sequential GETs of `p`, and how many scavenges that took. */
  async function promotedPerRequest(
    p: string,
    headers: Record<string, string> = {},
  ): Promise<{ bytes: number; scavenges: number; status: number }> {
    const from = server.output().length;
    let status = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const res = await fetch(`${server.url}${p}`, { headers });
      await res.arrayBuffer();
      status = res.status;
    }
    const scavenges = server
      .output()
      .slice(from)
      .split('\n')
      .filter((line) => /\bgc=s\b/.test(line));
    const promoted = scavenges.reduce((sum, line) => sum + Number(/\bpromoted=(\d+)/.exec(line)?.[1] ?? 0), 0);
    return { bytes: promoted / REQUESTS, scavenges: scavenges.length, status };
  }

  // The request log's layers, every answer's: the JSON wrapper among them.
  it('promotes little of a health check', async () => {
    const { bytes, scavenges, status } = await promotedPerRequest('/healthz');
    expect(status).toBe(200);
    expect(scavenges).toBeGreaterThan(10);
    expect(bytes).toBeLessThan(BOUND_BYTES);
  });

  // A public read's validator layer wraps the context's answers (a miss too: the wrappers are made first).
  it('promotes little of a public article read', async () => {
    const { bytes, scavenges, status } = await promotedPerRequest('/v1/articles/01a2259d-59bd-7622-94e1-6db20ed1ec8e');
    expect(status).toBe(404);
    expect(scavenges).toBeGreaterThan(10);
    expect(bytes).toBeLessThan(BOUND_BYTES);
  });

  // The /v1 layer's steps for a caller: the token checked, the activity recorder's functions set.
  it('promotes little of a signed-in read', async () => {
    const token = await registerVerifiedOwner(server.url, server.output);
    const { bytes, scavenges, status } = await promotedPerRequest('/v1/auth/me', { authorization: `Bearer ${token}` });
    expect(status).toBe(200);
    expect(scavenges).toBeGreaterThan(10);
    expect(bytes).toBeLessThan(BOUND_BYTES);
  });
});
