import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pngWithBrokenPixels } from '../support/decode-bombs.js';
import { JPEG_QUADRANTS_800x400, withExifOrientation } from '../support/images.js';
import { REPO_ROOT } from '../support/paths.js';
import { registerVerifiedOwner } from '../support/server-process.js';
import { startWranglerDev } from '../support/wrangler-dev.js';

const WRANGLER = path.join(REPO_ROOT, 'node_modules/.bin/wrangler');

/**
 * Variants through Cloudflare's Images binding under the real `wrangler dev`
 * with wrangler.toml's `[images]` block uncommented (its local mode makes
 * them with sharp, in wrangler's own process, as Cloudflare's image service
 * does off the Worker's CPU). The config is a copy of wrangler.toml beside
 * it, so its relative paths hold.
 */
describe('wrangler dev with an Images binding', () => {
  const config = path.join(REPO_ROOT, `.wrangler-images-${randomBytes(4).toString('hex')}.toml`);
  let dev: Awaited<ReturnType<typeof startWranglerDev>>;
  let token: string;
  beforeAll(async () => {
    const toml = await readFile(path.join(REPO_ROOT, 'wrangler.toml'), 'utf8');
    await writeFile(config, `${toml}\n[images]\nbinding = "IMAGES"\n`);
    // No edge copy: a repeated request can only be answered from the store (R2) or made again.
    dev = await startWranglerDev({ PUBLIC_CACHE_SECONDS: '0' }, ['--config', config]);
    token = await registerVerifiedOwner(dev.url, dev.output);
  }, 120_000);
  afterAll(async () => {
    await dev?.cleanup();
    await rm(config, { force: true });
  });

  const call = (route: string, init: RequestInit = {}) =>
    fetch(`${dev.url}${route}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });

  it('says at start-up that variants are made by the binding', () => {
    expect(dev.output()).toContain('"made":"by the Images binding"');
  });

  it('makes a variant through the binding, upright, stores it, and serves it again from the store', async () => {
    const article = (await (await call('/v1/articles', json({ title: 'Images' }))).json()) as {
      article: { id: string };
    };
    // 800×400 stored, turned by EXIF 6 to 400×800.
    const original = withExifOrientation(JPEG_QUADRANTS_800x400, 6);
    const form = new FormData();
    form.set('file', new Blob([original as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), 'photo.jpg');
    const up = await call(`/v1/articles/${article.article.id}/images`, { method: 'POST', body: form });
    expect(up.status).toBe(201);
    const { image } = (await up.json()) as { image: { url: string; filename: string } };

    const first = await fetch(`${image.url}?w=160&format=png`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    const made = new Uint8Array(await first.arrayBuffer());
    // Byte for byte what sharp makes of it: the binding made it, not photon in the Worker.
    const bySharp = await sharp(original, { autoOrient: true }).resize(160, 320, { fit: 'fill' }).png().toBuffer();
    expect(Buffer.from(made).equals(bySharp)).toBe(true);
    // Upright: the stored top-left quadrant (red) is now top-right, and so on round.
    const { data, info } = await sharp(made).raw().toBuffer({ resolveWithObject: true });
    const colour = (x: number, y: number) => {
      const i = (y * info.width + x) * info.channels;
      return [data[i]!, data[i + 1]!, data[i + 2]!].map((c) => (c > 127 ? 255 : 0)).join(',');
    };
    expect([info.width, info.height]).toEqual([160, 320]);
    expect([colour(154, 5), colour(154, 314), colour(5, 5), colour(5, 314)]).toEqual([
      '255,0,0',
      '0,255,0',
      '0,0,255',
      '255,255,255',
    ]);
    const stats = async () => ((await (await call('/v1/media/variants')).json()) as { count: number }).count;
    expect(await stats()).toBe(1);

    // The original gone from R2 behind the app's back: nothing can be made any more, the stored variant still answers.
    const removed = spawnSync(
      WRANGLER,
      ['r2', 'object', 'delete', `edge-cms-media/originals/${image.filename}`, '--local', '--persist-to', dev.state],
      { cwd: REPO_ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: 'false' }, encoding: 'utf8' },
    );
    expect(removed.status, removed.stderr).toBe(0);
    expect((await fetch(`${image.url}?w=320&format=png`)).status).not.toBe(200);
    const again = await fetch(`${image.url}?w=160&format=png`);
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).equals(bySharp)).toBe(true);
    expect(await stats()).toBe(1);
  });

  it('answers a failure of the binding with a 503 to retry, storing and marking nothing', async () => {
    const article = (await (await call('/v1/articles', json({ title: 'Broken pixels' }))).json()) as {
      article: { id: string };
    };
    // Local mode's sharp fails on its pixels, and the binding reports that as its internal error 9523.
    const damaged = pngWithBrokenPixels(800, 400);
    const form = new FormData();
    form.set('file', new Blob([damaged as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'damaged.png');
    const up = await call(`/v1/articles/${article.article.id}/images`, { method: 'POST', body: form });
    expect(up.status).toBe(201);
    const { image } = (await up.json()) as { image: { id: string; url: string } };
    const failures = () => dev.output().split('"message":"the Images binding failed"').length - 1;
    const before = failures();

    for (const attempt of [1, 2]) {
      const res = await fetch(`${image.url}?w=160&format=png`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      // The uniform body, and nothing of the service's own words or stack.
      expect(await res.json()).toEqual({
        error: { code: 'unavailable', message: 'The image service is unavailable: try again later' },
      });
      // Asked again each time: a 503 leaves no marker behind.
      // The Worker's log lines reach wrangler's output after its answer.
      await vi.waitFor(() => expect(failures()).toBe(before + attempt), { timeout: 10_000 });
    }
    const detail = (await (await call(`/v1/media/${image.id}`)).json()) as {
      image: { variants: unknown[]; srcset: string };
    };
    expect(detail.image.variants).toEqual([]);
    expect(detail.image.srcset).not.toBe('');
    expect(dev.output()).toContain('Unexpected error response 500');
  });
});

function json(body: unknown): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
