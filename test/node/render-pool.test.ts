import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createThreadPoolRenderer,
  type ThreadPoolOptions,
} from '../../worker/src/adapters/image/thread-pool.renderer.js';
import { readImageHeader } from '../../worker/src/core/media/image-header.js';
import type { RenderJob, VariantRenderer } from '../../worker/src/ports/image-codec.js';
import { JPEG_400x300 } from '../support/images.js';
import { REPO_ROOT } from '../support/paths.js';

/**
 * The Node renderer: worker threads running render.worker from the
 * TypeScript sources (the production bundle's render-worker.mjs is proven
 * by test/node/decode-event-loop.test.ts, through the real server).
 */
const WORKER = new URL('worker/src/adapters/image/render.worker.ts', `file://${REPO_ROOT}/`);

const pools: VariantRenderer[] = [];
function pool(overrides: Partial<ThreadPoolOptions> = {}) {
  const renderer = createThreadPoolRenderer({
    workerUrl: WORKER,
    threads: 1,
    timeLimitMs: 20_000,
    memoryLimitBytes: 1024 * 2 ** 20,
    retainBytes: 1024 * 2 ** 20,
    idleMs: 60_000,
    idleRetainBytes: 1024 * 2 ** 20,
    maxQueue: 8,
    lossyWebp: true,
    logError: () => {},
    ...overrides,
  });
  pools.push(renderer);
  return renderer;
}
afterEach(async () => {
  for (const p of pools.splice(0)) await p.close?.();
});

const job = (bytes: Uint8Array, width: number, height: number, format: RenderJob['format'] = 'jpeg'): RenderJob => ({
  bytes,
  width,
  height,
  orientation: 1,
  format,
  quality: 80,
});

/** 4000×4000 (16 MP, the variant cap), compressing to little: legal, and costly to decode. */
const heavyPng = async () =>
  new Uint8Array(
    await sharp({ create: { width: 4000, height: 4000, channels: 3, background: '#3060a0' } })
      .png()
      .toBuffer(),
  );

/** The largest gap between timer ticks while `work` runs: how long the event loop was blocked. */
async function worstLag(work: Promise<unknown>): Promise<number> {
  let worst = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 5);
    last = now;
  }, 5);
  try {
    await work;
  } finally {
    clearInterval(timer);
  }
  return worst;
}

/** Resolves once `done()` holds, asked every 50 ms; fails the test after 10 s. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 50) {
    if (waited > 10_000) throw new Error('condition not met within 10 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('thread-pool renderer (Node)', () => {
  it('makes variants in a worker thread, JPEG, PNG and lossy WebP', async () => {
    const renderer = pool();
    for (const format of ['jpeg', 'png', 'webp'] as const) {
      const out = await renderer.render(job(JPEG_400x300, 160, 120, format));
      expect(readImageHeader(out)).toMatchObject({ width: 160, height: 120 });
    }
  });

  it('leaves the event loop free while a 16-megapixel image renders', async () => {
    const renderer = pool();
    await renderer.render(job(JPEG_400x300, 16, 12)); // the thread is up
    const png = await heavyPng();
    let out: Uint8Array | undefined;
    const lag = await worstLag(renderer.render(job(png, 160, 160)).then((b) => (out = b)));
    expect(readImageHeader(out!)).toMatchObject({ width: 160, height: 160 });
    expect(lag).toBeLessThan(100);
  });

  it('replaces a thread whose memory grew past retainBytes (wasm memory never shrinks), and keeps a lean one', async () => {
    const renderer = pool({ retainBytes: 96 * 2 ** 20 });
    await renderer.render(job(JPEG_400x300, 160, 120));
    await renderer.render(job(JPEG_400x300, 320, 240, 'webp'));
    expect(renderer.stats()).toMatchObject({ started: 1 });
    expect(renderer.stats().lastHeldBytes).toBeLessThan(96 * 2 ** 20);
    await renderer.render(job(await heavyPng(), 160, 160));
    expect(renderer.stats().lastHeldBytes).toBeGreaterThan(96 * 2 ** 20);
    await renderer.render(job(JPEG_400x300, 160, 120));
    expect(renderer.stats()).toMatchObject({ started: 2 });
  });

  it("gives back an idle thread's grown memory: the last thread is swapped for a fresh one, a lean one is kept", async () => {
    const renderer = pool({ idleMs: 200, idleRetainBytes: 48 * 2 ** 20 });
    await renderer.render(job(JPEG_400x300, 160, 120));
    await until(() => renderer.stats().idleChecks === 1);
    expect(renderer.stats()).toMatchObject({ started: 1, threads: 1 });
    await renderer.render(job(await heavyPng(), 160, 160));
    expect(renderer.stats().lastHeldBytes).toBeGreaterThan(48 * 2 ** 20);
    await until(() => renderer.stats().started === 2);
    expect(renderer.stats().threads).toBe(1);
    const out = await renderer.render(job(JPEG_400x300, 160, 120));
    expect(readImageHeader(out)).toMatchObject({ width: 160 });
    // The fresh thread only warmed up: it stays.
    expect(renderer.stats().lastHeldBytes).toBeLessThan(48 * 2 ** 20);
  });

  it('stops the extra thread a burst started once it is idle, and keeps one', async () => {
    const renderer = pool({ threads: 2, idleMs: 200 });
    await Promise.all([1, 2].map(() => renderer.render(job(JPEG_400x300, 160, 120))));
    expect(renderer.stats()).toMatchObject({ started: 2, threads: 2 });
    await until(() => renderer.stats().threads === 1);
    expect(renderer.stats().started).toBe(2);
  });

  it('stops a render over its time limit, refuses it, and carries on with a fresh thread', async () => {
    const png = await heavyPng();
    // The limit is set from what a small and the 16 MP render take here and now (the fastest of a
    // few of each, so one pause of a loaded machine does not set it): room for the small render on
    // the fresh thread that follows the refusal (eight times a warm one's, at least 100 ms), and
    // never more than a third of the heavy render, which then runs at least three times over it.
    const calibration = pool();
    await calibration.render(job(JPEG_400x300, 160, 120));
    const fastest = async (input: Uint8Array, width: number, height: number, times: number) => {
      let best = Number.POSITIVE_INFINITY;
      for (let i = 0; i < times; i++) {
        const started = performance.now();
        await calibration.render(job(input, width, height));
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    const small = await fastest(JPEG_400x300, 160, 120, 5);
    const heavy = await fastest(png, 160, 160, 2);
    const limit = Math.ceil(Math.min(heavy / 3, Math.max(100, 8 * small)));
    const renderer = pool({ timeLimitMs: limit });
    await expect(renderer.render(job(png, 160, 160))).rejects.toThrow(`longer than ${limit} ms`);
    const out = await renderer.render(job(JPEG_400x300, 160, 120));
    expect(readImageHeader(out)).toMatchObject({ width: 160 });
  });

  it('stops a render over its memory limit, refuses it, and carries on with a fresh thread', async () => {
    const png = await heavyPng(); // 64 MB of RGBA once decoded
    const renderer = pool({ memoryLimitBytes: 48 * 2 ** 20 });
    await expect(renderer.render(job(png, 160, 160))).rejects.toThrow(/more than/);
    const out = await renderer.render(job(JPEG_400x300, 160, 120));
    expect(readImageHeader(out)).toMatchObject({ width: 160 });
  });

  it('a decoder failure is a refusal (not a DomainError), and a thread that could not start is a 503', async () => {
    const broken = JPEG_400x300.slice();
    broken[broken.indexOf(0xc0, 2)] = 0xc3; // lossless JPEG: photon panics
    const renderer = pool();
    const err = await renderer.render(job(broken, 160, 120)).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBeUndefined();
    expect(readImageHeader(await renderer.render(job(JPEG_400x300, 16, 12)))).toMatchObject({ width: 16 });
    const missing = pool({ workerUrl: new URL('no-such-worker.mjs', WORKER) });
    await expect(missing.render(job(JPEG_400x300, 16, 12))).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('refuses jobs beyond its queue with a 503, and everything after close()', async () => {
    const png = await heavyPng();
    const renderer = pool({ maxQueue: 2 });
    const running = [1, 2, 3].map(() => renderer.render(job(png, 16, 16)).catch((e) => e));
    await expect(renderer.render(job(png, 16, 16))).rejects.toMatchObject({ code: 'unavailable' });
    await Promise.all(running);
    await renderer.close?.();
    await expect(renderer.render(job(JPEG_400x300, 16, 12))).rejects.toMatchObject({ code: 'unavailable' });
  });
});
