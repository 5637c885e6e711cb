import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { PoolStats } from '../../worker/src/adapters/image/thread-pool.renderer.js';
import { createApp } from '../../worker/src/app/app.js';
import { readImageHeader } from '../../worker/src/core/media/image-header.js';
import { createArticle, registerOwner, upload } from '../support/api-flows.js';
import type { ApiHarness } from '../support/api-harness.js';
import { pngDepthBomb } from '../support/decode-bombs.js';
import { nodeHarness } from '../support/node-harness.js';

/**
 * The variant queue on a real Node server (HTTP over a socket, render
 * threads from the TypeScript sources) under a decode bomb: a 16-bit
 * interlaced 4000×4000 PNG of ~125 KB whose image data inflates to ~128 MB.
 * Every assertion is on states (answers, the pool's counters), none on time;
 * `npm run reliability` times the same scenario.
 */

const WIDTHS = [160, 320, 640, 960, 1280, 1920];
const FORMATS = ['png', 'jpeg', 'webp'];
/** 18 variants of one image: every width in every format, as a page's srcset and a crawler would ask. */
const EIGHTEEN = WIDTHS.flatMap((w) => FORMATS.map((f) => `?w=${w}&format=${f}`));

interface Server {
  api: ApiHarness;
  url: string;
  stats: () => PoolStats;
  /** Uploads `bytes` to a fresh article; the image's path. */
  upload: (bytes: Uint8Array) => Promise<string>;
}

const opened: { api: ApiHarness; server: ServerType }[] = [];
afterEach(async () => {
  for (const { api, server } of opened.splice(0)) {
    await new Promise((resolve) => server.close(resolve));
    await api.cleanup();
  }
});

async function startServer(settings: Record<string, string>): Promise<Server> {
  const api = await nodeHarness({
    db: 'sqlite',
    storage: 'local',
    settings: { MAX_UPLOAD_BYTES: String(256 * 1024), ...settings },
  });
  const app = createApp(api.deps);
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  opened.push({ api, server });
  const owner = (await registerOwner(api, 'queue@example.com')).token;
  const articleId = (await createArticle(api, owner)).id;
  return {
    api,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats: () => (api.deps.renderer as unknown as { stats(): PoolStats }).stats(),
    async upload(bytes) {
      const res = await upload(api, owner, articleId, bytes, 'x.png', 'image/png');
      expect(res.status).toBe(201);
      return new URL((await res.json()).image.url).pathname;
    },
  };
}

/** A small PNG of its own colour: distinct bytes, so a distinct group in the queue. */
const smallPng = async (shade: number) =>
  new Uint8Array(
    await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: shade, g: 90, b: 160 } } })
      .png()
      .toBuffer(),
  );

/** A request whose answer (status, Retry-After, body) is kept, and whether it has come. */
function track(url: string, init?: RequestInit) {
  const state = { done: false, status: 0, retryAfter: null as string | null, body: undefined as unknown };
  const finished = fetch(url, init)
    .then(async (res) => {
      state.status = res.status;
      state.retryAfter = res.headers.get('retry-after');
      const bytes = new Uint8Array(await res.arrayBuffer());
      state.body = res.headers.get('content-type')?.startsWith('application/json')
        ? JSON.parse(new TextDecoder().decode(bytes))
        : bytes;
    })
    .catch((err: unknown) => {
      state.body = err; // an aborted request
    })
    .finally(() => {
      state.done = true;
    });
  return Object.assign(state, { finished });
}

/** Resolves once `done()` holds, asked every 25 ms; fails the test after 20 s. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !done(); waited += 25) {
    if (waited > 20_000) throw new Error(`${what}: not reached within 20 s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the Node variant queue under a decode bomb (real server, real render threads)', () => {
  /** Sends the 18 bomb requests and waits until each is answered, waiting, or on a thread. */
  async function sendBombs(srv: Server, bomb: string, signal?: AbortSignal) {
    const bombs = EIGHTEEN.map((q) => track(`${srv.url}${bomb}${q}`, { signal }));
    await until(() => {
      const s = srv.stats();
      return bombs.filter((b) => b.done).length + s.queued + s.running === 18 && s.running > 0;
    }, 'all 18 bomb requests admitted or refused');
    return bombs;
  }

  /** One image may hold a quarter of the queue (32 by default), 8 jobs, beside the one on its thread (once up). */
  function expectRefusedForRoom(bombs: ReturnType<typeof track>[]) {
    const full = bombs.filter((b) => b.status === 503);
    expect(full.length).toBeGreaterThanOrEqual(18 - 1 - 8);
    expect(full.length).toBeLessThanOrEqual(18 - 8);
    for (const b of full) {
      expect(Number(b.retryAfter)).toBeGreaterThan(0);
      expect(b.body).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });
    }
    return full.length;
  }

  it('answers a normal variant sent behind 18 bomb requests while the bombs are still pending', async () => {
    // Every bomb renders to its end here (seconds each): only taking turns lets the normal one through.
    const srv = await startServer({ DECODE_TIME_LIMIT_MS: '120000', DECODE_MEMORY_LIMIT_MB: '2048' });
    const bomb = await srv.upload(await pngDepthBomb());
    const normal = await srv.upload(await smallPng(40));
    const leaving = new AbortController();
    const bombs = await sendBombs(srv, bomb, leaving.signal);
    const okWhenSent = bombs.filter((b) => b.status === 200).length;
    const answer = track(`${srv.url}${normal}?w=160`);
    await answer.finished;
    expect(answer.status).toBe(200);
    expect(readImageHeader(answer.body as Uint8Array)).toMatchObject({ width: 160, height: 120 });
    // At most the bomb already on the thread finished before it; the others still wait.
    expect(bombs.filter((b) => b.status === 200).length - okWhenSent).toBeLessThanOrEqual(1);
    const pending = bombs.filter((b) => !b.done).length;
    expect(pending).toBeGreaterThanOrEqual(18 - expectRefusedForRoom(bombs) - 2);
    // Their clients give up: the waiting ones are dropped unstarted, the one running ends.
    const { dropped, running } = srv.stats();
    leaving.abort();
    await until(() => srv.stats().dropped === dropped + pending - running, 'the waiting bombs dropped');
    await until(() => srv.stats().running === 0, 'the running bomb ended');
  });

  it('checks the marker when a job leaves the queue: bombs waiting behind a refused one never start', async () => {
    // A time limit the bomb always runs over, the normal variant never: on the fastest machine seen the
    // bomb rendered in 500–650 ms (some within 600, this test's limit before), the normal variant in about 20.
    const srv = await startServer({ DECODE_TIME_LIMIT_MS: '300' });
    const bomb = await srv.upload(await pngDepthBomb());
    const normal = await srv.upload(await smallPng(60));
    const startedBefore = srv.stats().jobs;
    const bombs = await sendBombs(srv, bomb);
    const answer = track(`${srv.url}${normal}?w=160`);
    await Promise.all([answer.finished, ...bombs.map((b) => b.finished)]);
    expect(answer.status).toBe(200);
    const full = expectRefusedForRoom(bombs);
    // The first bomb ran over its limit and was marked; those waiting behind it saw the marker
    // when they left the queue: two jobs started in all, the first bomb and the normal one.
    const refused = bombs.filter((b) => b.status === 400);
    expect(refused.length).toBe(18 - full);
    for (const b of refused) expect(b.body).toMatchObject({ error: { code: 'invalid_request' } });
    expect(srv.stats().jobs - startedBefore).toBe(2);
  });

  /** Two bombs (distinct bytes) rendering to their end, one on each of the two threads. */
  async function holdBothThreads(srv: Server) {
    const paths = [];
    for (const height of [4000, 3999]) paths.push(await srv.upload(await pngDepthBomb({ height })));
    const hogs = paths.map((p) => track(`${srv.url}${p}?w=160`));
    await until(() => srv.stats().running === 2, 'a bomb on each thread');
    return hogs;
  }

  // Two bombs render side by side to their end: seconds each on a quiet machine, more on a loaded one.
  it('drops a waiting job once its only client has gone, before it starts', { timeout: 120_000 }, async () => {
    const srv = await startServer({ DECODE_TIME_LIMIT_MS: '120000', DECODE_MEMORY_LIMIT_MB: '2048' });
    const normal = await srv.upload(await smallPng(80));
    const startedBefore = srv.stats().jobs;
    const hogs = await holdBothThreads(srv);
    const leaving = new AbortController();
    const gone = track(`${srv.url}${normal}?w=320`, { signal: leaving.signal });
    await until(() => srv.stats().queued === 1, 'the normal variant waiting');
    leaving.abort();
    await until(() => srv.stats().dropped === 1, 'the waiting job dropped');
    expect(srv.stats().queued).toBe(0);
    await Promise.all([...hogs, gone].map((r) => r.finished));
    expect(hogs.map((h) => h.status)).toEqual([200, 200]);
    expect(srv.stats().jobs - startedBefore).toBe(2); // the bombs only: the dropped job never started
    // Nothing was made for it; the next request makes it afresh.
    const again = track(`${srv.url}${normal}?w=320`);
    await again.finished;
    expect(again.status).toBe(200);
    expect(srv.stats().jobs - startedBefore).toBe(3);
  });

  it('refuses with 503 and Retry-After once the queue is full, and serves the ones it took', {
    timeout: 120_000,
  }, async () => {
    const srv = await startServer({
      DECODE_TIME_LIMIT_MS: '120000',
      DECODE_MEMORY_LIMIT_MB: '2048',
      VARIANT_QUEUE_MAX: '4',
    });
    const others = [];
    for (let i = 0; i < 5; i++) others.push(await srv.upload(await smallPng(100 + 20 * i)));
    const hogs = await holdBothThreads(srv);
    const waiting = others.slice(0, 4).map((p) => track(`${srv.url}${p}?w=160`));
    await until(() => srv.stats().queued === 4, 'four variants waiting');
    const refused = track(`${srv.url}${others[4]}?w=160`);
    await refused.finished;
    expect(refused.status).toBe(503);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused.body).toEqual({
      error: { code: 'unavailable', message: 'Too many image variants are waiting to be made' },
    });
    await Promise.all([...hogs, ...waiting].map((w) => w.finished));
    expect([...hogs, ...waiting].map((w) => w.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });
});
