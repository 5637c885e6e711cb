import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createCodecRenderer } from '../../worker/src/adapters/image/codec.renderer.js';
import { createPhotonImageCodec } from '../../worker/src/adapters/image/photon.image-codec.js';
import { readJpegOrientation } from '../../worker/src/core/media/exif-orientation.js';
import type { Image } from '../../worker/src/features/media/images.port.js';
import { createVariantsService } from '../../worker/src/features/media/variants.service.js';
import { JPEG_2x3, JPEG_QUADRANTS, PNG_1x1, withExifOrientation } from '../support/images.js';
import { memoryBlobStore } from '../support/memory-blob-store.js';

const ORIENTATIONS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

describe('readJpegOrientation', () => {
  it('is 1 without EXIF, and for anything that is not a JPEG', () => {
    expect(readJpegOrientation(JPEG_2x3)).toBe(1);
    expect(readJpegOrientation(PNG_1x1)).toBe(1);
    expect(readJpegOrientation(new Uint8Array())).toBe(1);
  });

  it.each(ORIENTATIONS)('reads orientation %i in both byte orders', (n) => {
    expect(readJpegOrientation(withExifOrientation(JPEG_QUADRANTS, n))).toBe(n);
    expect(readJpegOrientation(withExifOrientation(JPEG_QUADRANTS, n, true))).toBe(n);
  });

  it.each(ORIENTATIONS)('reads orientation %i as sharp (libexif) writes it', async (n) => {
    const jpeg = await sharp(Buffer.from(JPEG_QUADRANTS)).withMetadata({ orientation: n }).jpeg().toBuffer();
    expect(readJpegOrientation(new Uint8Array(jpeg))).toBe(n);
  });

  it('ignores out-of-range values', () => {
    expect(readJpegOrientation(withExifOrientation(JPEG_QUADRANTS, 0))).toBe(1);
    expect(readJpegOrientation(withExifOrientation(JPEG_QUADRANTS, 9))).toBe(1);
  });

  it('never throws on cut or corrupted EXIF', () => {
    const full = withExifOrientation(JPEG_QUADRANTS, 6);
    for (let cut = 0; cut < 60; cut++) expect(() => readJpegOrientation(full.subarray(0, cut))).not.toThrow();
    let seed = 7;
    for (let round = 0; round < 500; round++) {
      const bytes = full.slice(0, 64);
      for (let k = 0; k < 4; k++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        bytes[4 + (seed % 56)] = seed & 0xff;
      }
      const value = readJpegOrientation(bytes);
      expect(value >= 1 && value <= 8).toBe(true);
    }
  });
});

/** The colour at the centre of each quadrant, each channel rounded to 0 or 255. */
async function quadrants(bytes: Uint8Array) {
  const { data, info } = await sharp(Buffer.from(bytes)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (Math.floor(y) * info.width + Math.floor(x)) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!].map((c) => (c > 127 ? 255 : 0)).join(',');
  };
  const [w, h] = [info.width, info.height];
  return {
    size: `${w}x${h}`,
    tl: at(w / 4, h / 4),
    tr: at((3 * w) / 4, h / 4),
    bl: at(w / 4, (3 * h) / 4),
    br: at((3 * w) / 4, (3 * h) / 4),
  };
}

describe('variants honour EXIF orientation like sharp does', () => {
  it.each(ORIENTATIONS)('orientation %i', async (n) => {
    const original = new Uint8Array(
      await sharp(Buffer.from(JPEG_QUADRANTS)).withMetadata({ orientation: n }).jpeg({ quality: 95 }).toBuffer(),
    );
    const blobs = memoryBlobStore();
    const image: Image = {
      id: `0190a000-0000-7000-8000-00000000000${n}`,
      articleId: '0190a000-0000-7000-8000-000000000000',
      filename: `0190a000-0000-7000-8000-00000000000${n}.jpg`,
      contentType: 'image/jpeg',
      bytes: original.byteLength,
      width: 32,
      height: 16,
      sha256: 'ab'.repeat(32),
      createdAt: new Date(),
      originalName: null,
      alt: '',
      caption: '',
    };
    await blobs.put(`originals/${image.filename}`, original, 'image/jpeg');
    const variants = createVariantsService({
      blobs,
      renderer: createCodecRenderer(createPhotonImageCodec()),
      presets: [16, 32],
      maxImagePixels: 1_000_000,
      logError: () => {},
    });
    const made = await variants.open(image, { format: 'png' });
    const ours = await quadrants(
      new Uint8Array(await new Response((made as { body: ReadableStream }).body).arrayBuffer()),
    );
    const theirs = await quadrants(new Uint8Array(await sharp(Buffer.from(original)).rotate().png().toBuffer()));
    expect(ours).toEqual(theirs);
    expect(ours.size).toBe(n >= 5 ? '16x32' : '32x16');
  });
});
