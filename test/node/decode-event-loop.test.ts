import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { MAX_JPEG_SCANS } from '../../worker/src/core/domain/image-limits.js';
import { jpegScanFlood, pngAncillaryBomb, webpCanvasLie } from '../support/decode-bombs.js';
import { type ServerProcess, startServer } from '../support/server-process.js';

/**
 * The production bundle (render threads from dist/node/render-worker.mjs)
 * keeps its event loop free while variants render: /healthz, asked again
 * as soon as it answers, never waits long, whatever is being decoded. This
 * measures that the loop is free, not how fast decoding is. The probe runs
 * in a process of its own, so that this test's own work (sharp, fetch,
 * garbage collection) does not count as the server's.
 */
const HEALTHZ_BOUND_MS = 150;
/**
 * On a loaded machine /healthz waits for a core even when nothing is decoded. The bound then
 * grows to three times the worst wait of a quiet window measured just before (no renders), so
 * that load alone does not fail the test; on an idle machine the quiet worst is a few ms and
 * the bound stays 150 ms, far below one 16 MP render (about a second) on the event loop.
 */
const QUIET_WINDOW_MS = 2000;

const PROBE = `
let worst = 0, samples = 0, running = true;
process.stdin.on('end', () => (running = false)).resume();
(async () => {
  while (running) {
    const t0 = performance.now();
    await (await fetch(process.argv[1] + '/healthz')).arrayBuffer();
    worst = Math.max(worst, performance.now() - t0);
    if (samples++ === 0) process.stdout.write('up\\n');
    await new Promise((r) => setTimeout(r, 5));
  }
  process.stdout.write(JSON.stringify({ worst, samples }));
})();
`;

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely, as in the API contracts
type Json = Record<string, any>;

describe('the Node server renders variants off its event loop', () => {
  let cwd: string;
  let server: ServerProcess;
  let token: string;
  let articleId: string;

  const api = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${server.url}${p}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const upload = async (bytes: Uint8Array) => {
    const form = new FormData();
    form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), 'x.bin');
    const res = await fetch(`${server.url}/v1/articles/${articleId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Json };
  };

  beforeAll(async () => {
    await buildNode();
    cwd = await mkdtemp(path.join(tmpdir(), 'cms-decode-'));
    // The time limit has its own test (render-pool.test.ts); here a loaded machine (the render
    // thread runs at a lower priority) must not turn a legal render into a refusal.
    server = await startServer(cwd, {
      JWT_SECRET: 'decode-event-loop-test-secret-0123456789',
      DECODE_TIME_LIMIT_MS: '120000',
    });
    const account = { email: 'owner@example.com', password: 'a long enough password' };
    expect((await api('POST', '/v1/auth/register', account)).status).toBe(201);
    const code = /verify\?code=([A-Za-z0-9_-]+)/.exec(server.output())?.[1];
    expect((await api('POST', '/v1/auth/verify', { code })).status).toBe(200);
    token = (await api('POST', '/v1/auth/login', account)).body.token;
    articleId = (await api('POST', '/v1/articles', { title: 'Decoding' })).body.article.id;
    await healthzBound(); // the quiet window, before any render
  });
  afterAll(async () => {
    await server?.stop();
    await rm(cwd, { recursive: true, force: true });
  });

  /** Asks /healthz back to back (from another process) while `work` runs; the slowest answer. */
  async function worstHealthz(work: () => Promise<unknown>): Promise<{ worst: number; samples: number }> {
    const probe = spawn(process.execPath, ['-e', PROBE, server.url], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    probe.stdout!.on('data', (d) => (out += d));
    const ended = new Promise((resolve) => probe.on('exit', resolve));
    // The probe is up and asking: it says so after its first answer.
    await Promise.race([
      new Promise((resolve) => probe.stdout!.on('data', () => out.includes('up\n') && resolve(0))),
      ended,
    ]);
    try {
      await work();
    } finally {
      probe.stdin!.end();
      await ended;
    }
    return JSON.parse(out.slice(out.indexOf('\n') + 1));
  }

  let bound: number | undefined;
  async function healthzBound(): Promise<number> {
    if (bound === undefined) {
      const quiet = await worstHealthz(() => new Promise((r) => setTimeout(r, QUIET_WINDOW_MS)));
      bound = Math.max(HEALTHZ_BOUND_MS, 3 * quiet.worst);
    }
    return bound;
  }

  it('answers /healthz promptly while a 16-megapixel PNG, the costliest legal JPEG and a PNG bomb render', async () => {
    const heavyPng = new Uint8Array(
      await sharp({ create: { width: 4000, height: 4000, channels: 3, background: '#3060a0' } })
        .png()
        .toBuffer(),
    );
    const images = [
      heavyPng,
      jpegScanFlood({ width: 4000, height: 4000, scans: MAX_JPEG_SCANS - 1, progressive: true }),
      await pngAncillaryBomb('iCCP', 256 * 2 ** 20),
    ];
    const urls: string[] = [];
    for (const bytes of images) {
      const res = await upload(bytes);
      expect(res.status).toBe(201);
      urls.push(res.body.image.url);
    }
    const statuses: number[] = [];
    const { worst, samples } = await worstHealthz(async () => {
      for (const url of urls) {
        for (const query of ['?w=160', '?w=1920&format=webp']) {
          const res = await fetch(`${server.url}${new URL(url).pathname}${query}`);
          await res.arrayBuffer();
          statuses.push(res.status);
        }
      }
    });
    expect(statuses).toEqual(new Array(6).fill(200));
    expect(samples).toBeGreaterThan(10);
    expect(worst).toBeLessThan(await healthzBound());
  });

  it('answers /healthz promptly while hostile uploads are refused from their structure', async () => {
    const flood = jpegScanFlood({ width: 4000, height: 4000, scans: 600_000 }); // ~10 MB of empty scans
    expect(flood.length).toBeLessThan(10 * 2 ** 20);
    const statuses: number[] = [];
    const { worst } = await worstHealthz(async () => {
      for (const bytes of [flood, webpCanvasLie()]) statuses.push((await upload(bytes)).status);
    });
    expect(statuses).toEqual([400, 400]);
    expect(worst).toBeLessThan(await healthzBound());
  });
});
