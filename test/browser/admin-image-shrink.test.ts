import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../admin-qwik/src/lib/format.js';
import { ownerCms } from './admin-fixture.js';
import { bodyText, editorSettings, expectNoProblems, fillBody, POLL } from './admin-helpers.js';

const EMAIL = 'owner@example.com';

/** A 3000×2000 JPEG with detail in it (a flat colour would compress to nothing), and an EXIF orientation when asked. */
async function bigJpeg(orientation?: number): Promise<Buffer> {
  const width = 3000;
  const height = 2000;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 7 + y) & 0xff;
      raw[i + 1] = (y * 5) & 0xff;
      raw[i + 2] = ((x ^ y) * 3) & 0xff;
    }
  }
  const image = sharp(raw, { raw: { width, height, channels: 3 } });
  return (orientation ? image.withMetadata({ orientation }) : image).jpeg({ quality: 85 }).toBuffer();
}

interface StoredImage {
  url: string;
  filename: string;
  width: number;
  height: number;
  bytes: number;
}

/**
 * The editor's pre-upload shrink: photon (WebAssembly) in Chromium fits a
 * large JPEG within 2560 px before it is sent, unless the box is unticked;
 * the choice is remembered; the wasm is fetched only when shrinking.
 */
describe('admin image shrink before upload', () => {
  const cms = ownerCms(EMAIL);

  const storedImages = async (articleId: string) =>
    (await cms.api<{ items: StoredImage[] }>('GET', `/v1/articles/${articleId}/images`)).body.items;

  it('shrinks a 3000×2000 JPEG to 2560×1707 in the browser, and uploads the original when the box is unticked', async () => {
    const base = cms.server.url;
    const wasm: string[] = [];
    const { id, page, problems } = await cms.openImages('Large pictures', (p) =>
      p.on('request', (req) => {
        if (new URL(req.url()).pathname.endsWith('.wasm')) wasm.push(new URL(req.url()).pathname);
      }),
    );
    const box = page.getByLabel('Shrink images larger than 2560 px before uploading');
    await expect.poll(() => box.isChecked(), POLL).toBe(true);
    // The login page, the dashboard and the editor itself fetched no WebAssembly.
    expect(wasm).toEqual([]);

    const original = await bigJpeg();
    await page.locator('#image-file').setInputFiles({ name: 'big.jpg', mimeType: 'image/jpeg', buffer: original });
    const uploads = page.getByTestId('upload');
    await uploads.first().and(page.locator('[data-state="done"]')).waitFor({ timeout: 30_000 });
    const sizes = await uploads.first().getByTestId('upload-sizes').textContent();
    expect(sizes).toMatch(/^3000×2000, [\d.]+ (KiB|MiB) → 2560×1707, [\d.]+ (KiB|MiB)$/);
    // Photon's wasm (emitted under /build with the scripts) came only now; libwebp's is not needed for a JPEG.
    expect(wasm).toEqual([expect.stringMatching(/^\/build\/[\w-]+-photon_rs_bg\.wasm$/)]);

    let stored = await storedImages(id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ width: 2560, height: 1707 });
    // The list shows the bytes that were sent: the stored file's.
    expect(sizes).toBe(`3000×2000, ${formatBytes(original.length)} → 2560×1707, ${formatBytes(stored[0]!.bytes)}`);
    // The stored file is a real JPEG of that size (the server's figures are read from its bytes).
    const meta = await sharp(Buffer.from(await (await fetch(new URL(stored[0]!.url, base))).arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 2560, 1707]);

    // Unticked: the same file goes up as it is, and the choice survives a reload.
    await box.uncheck();
    await page.reload();
    await page.getByLabel('Title', { exact: true }).waitFor(POLL);
    await editorSettings(page);
    await page.getByRole('heading', { name: 'Images' }).waitFor(POLL);
    await expect.poll(() => box.isChecked(), POLL).toBe(false);
    await page
      .locator('#image-file')
      .setInputFiles({ name: 'big-original.jpg', mimeType: 'image/jpeg', buffer: original });
    await uploads.first().and(page.locator('[data-state="done"]')).waitFor({ timeout: 30_000 });
    expect(await uploads.first().getByTestId('upload-sizes').textContent()).toMatch(
      /^3000×2000, [\d.]+ MiB, uploaded as is \(shrinking is off\)$/,
    );
    stored = await storedImages(id);
    expect(stored).toHaveLength(2);
    const kept = stored.find((i) => i.width === 3000)!;
    expect(kept).toMatchObject({ width: 3000, height: 2000, bytes: original.length });

    await box.check();
    expectNoProblems(problems);
  });

  it('shrinks a large JPEG dropped onto the text too, before it is uploaded and inserted', async () => {
    const { id, page, problems } = await cms.openImages('Dropped large picture');
    await editorSettings(page, false);
    await fillBody(page, 'Intro.');
    const original = await bigJpeg();
    // Dropped onto the body as the browser delivers it: a DataTransfer with the File.
    await page.locator('.cm-content#article-body').evaluate((el, b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'dropped-big.jpg', { type: 'image/jpeg' }));
      const r = el.getBoundingClientRect();
      el.dispatchEvent(
        new DragEvent('drop', {
          dataTransfer: dt,
          bubbles: true,
          cancelable: true,
          clientX: r.right - 8,
          clientY: r.bottom - 8,
        }),
      );
    }, original.toString('base64'));
    await expect.poll(() => bodyText(page), { timeout: 30_000 }).toMatch(/!\[dropped big\]\(\/[^)]+\)/);
    const stored = await storedImages(id);
    expect(stored.map((i) => [i.width, i.height])).toEqual([[2560, 1707]]);
    expectNoProblems(problems);
  });

  it('turns an EXIF-rotated JPEG upright while shrinking (the new file has no EXIF to do it)', async () => {
    const { id, page, problems } = await cms.openImages('Rotated picture');
    // Stored 3000×2000, shown 2000×3000 (orientation 6: turn 90° clockwise).
    await page
      .locator('#image-file')
      .setInputFiles({ name: 'portrait.jpg', mimeType: 'image/jpeg', buffer: await bigJpeg(6) });
    await page.getByTestId('upload').first().and(page.locator('[data-state="done"]')).waitFor({ timeout: 30_000 });
    const stored = await storedImages(id);
    expect(stored.map((i) => [i.width, i.height])).toEqual([[1707, 2560]]);
    expectNoProblems(problems);
  });

  it('shrinks a wide WebP with libwebp (lossy, as on the server) and leaves a small PNG alone', async () => {
    const base = cms.server.url;
    const { id, page, problems } = await cms.openImages('WebP picture');
    const wide = await sharp({ create: { width: 3200, height: 800, channels: 3, background: '#3a7' } })
      .webp({ quality: 80 })
      .toBuffer();
    const small = await sharp({ create: { width: 40, height: 30, channels: 4, background: '#f008' } })
      .png()
      .toBuffer();
    await page.locator('#image-file').setInputFiles([
      { name: 'wide.webp', mimeType: 'image/webp', buffer: wide },
      { name: 'small.png', mimeType: 'image/png', buffer: small },
    ]);
    const uploads = page.getByTestId('upload');
    await uploads.nth(1).and(page.locator('[data-state="done"]')).waitFor({ timeout: 30_000 });
    expect(await uploads.first().getAttribute('data-state')).toBe('done');
    expect(await uploads.first().getByTestId('upload-sizes').textContent()).toMatch(/^3200×800, .* → 2560×640, /);
    expect(await uploads.nth(1).getByTestId('upload-sizes').isHidden()).toBe(true);
    const stored = await storedImages(id);
    expect(stored.map((i) => [i.filename.split('.').pop(), i.width, i.height]).sort()).toEqual([
      ['png', 40, 30],
      ['webp', 2560, 640],
    ]);
    // Lossy WebP ('VP8 ' chunk), not photon's lossless writer ('VP8L').
    const webp = Buffer.from(
      await (await fetch(new URL(stored.find((i) => i.filename.endsWith('.webp'))!.url, base))).arrayBuffer(),
    );
    expect(webp.toString('latin1', 12, 16)).toBe('VP8 ');
    expectNoProblems(problems);
  });
});
