import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createPhotonImageCodec } from '../../worker/src/adapters/image/photon.image-codec.js';
import { JpegError, JpegLimitError } from '../../worker/src/codecs/image/jpeg/bit-reader.js';
import { decodeJpegScaled, type ScaledPixels, scaleFor } from '../../worker/src/codecs/image/jpeg/decode-scaled.js';
import { idctBlock, idctGeneric } from '../../worker/src/codecs/image/jpeg/reduced-idct.js';
import { MAX_JPEG_SCANS, MAX_JPEG_SEGMENTS } from '../../worker/src/core/domain/image-limits.js';
import { jpegMarkerFlood, jpegScanFlood } from '../support/decode-bombs.js';
import { JPEG_QUADRANTS_800x400, withExifOrientation } from '../support/images.js';
import { REPO_ROOT } from '../support/paths.js';

/**
 * The DCT-scaling JPEG decoder against libjpeg (through sharp): each output
 * pixel of a 1/k decode is the mean of its k×k source block, so a reference
 * is sharp's full decode averaged over exactly those blocks. A wrong Huffman
 * table, zig-zag entry, IDCT constant or colour conversion drops the PSNR
 * from ~40 dB to ~10.
 */

const fixture = (name: string) => new Uint8Array(readFileSync(path.join(REPO_ROOT, 'test/fixtures/jpeg', name)));

async function psnrAgainstLibjpeg(jpeg: Uint8Array, out: ScaledPixels): Promise<number> {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const k = [8, 4, 2].find((f) => Math.ceil(info.width / f) === out.width)!;
  let se = 0;
  let n = 0;
  // Whole blocks only: the last row and column may be partial.
  for (let y = 0; y < Math.floor(info.height / k); y++) {
    for (let x = 0; x < Math.floor(info.width / k); x++) {
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        for (let yy = y * k; yy < (y + 1) * k; yy++) {
          for (let xx = x * k; xx < (x + 1) * k; xx++)
            sum += data[(yy * info.width + xx) * info.channels + (info.channels === 1 ? 0 : c)]!;
        }
        const d = sum / (k * k) - out.rgba[(y * out.width + x) * 4 + c]!;
        se += d * d;
        n++;
      }
    }
  }
  return 10 * Math.log10((255 * 255) / Math.max(se / n, 1e-9));
}

const photo = (width: number, height: number) => {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = 128 + 100 * Math.sin(x / 31) * Math.cos(y / 17);
      raw[i + 1] = 128 + 90 * Math.sin((x + 2 * y) / 23);
      raw[i + 2] = 255 - 2 * Math.hypot(x - width / 2, y - height / 2) * (128 / Math.hypot(width, height));
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } });
};

describe('decodeJpegScaled', () => {
  it('picks the largest power-of-two shrink that still covers the wanted size', () => {
    expect(scaleFor(2000, 1500, 400, 300)).toBe(2); // 500×375
    expect(scaleFor(2000, 1500, 200, 150)).toBe(1); // 250×188
    expect(scaleFor(2000, 1500, 800, 600)).toBe(4); // 1000×750
    expect(scaleFor(2000, 1500, 1200, 900)).toBe(8); // no shrink
    expect(scaleFor(203, 141, 26, 18)).toBe(1); // ceil(203/8) = 26
    expect(scaleFor(203, 141, 27, 18)).toBe(2);
  });

  const kinds = [
    'baseline-420-restart.jpg',
    'baseline-422.jpg',
    'baseline-440.jpg',
    'progressive-420-restart.jpg',
    'progressive-grey.jpg',
    'rgb.jpg',
  ];
  for (const name of kinds) {
    it.each([26, 51, 102])(
      `decodes ${name} (libjpeg's cjpeg) at the shrink for a width of %i like libjpeg`,
      async (width) => {
        const jpeg = fixture(name);
        const out = decodeJpegScaled(jpeg, width, 1)!;
        expect(out).not.toBeNull();
        expect(out.width).toBe(width);
        expect(out.height).toBe(Math.ceil((141 * scaleFor(203, 141, width, 1)) / 8));
        expect(out.rgba.length).toBe(out.width * out.height * 4);
        expect(await psnrAgainstLibjpeg(jpeg, out)).toBeGreaterThan(35);
      },
    );
  }

  it('4:1:1 decodes at 1/8 and 1/4; at 1/2 its chroma would need 16-pixel blocks, so it leaves it to photon', async () => {
    const jpeg = fixture('baseline-411.jpg');
    expect(await psnrAgainstLibjpeg(jpeg, decodeJpegScaled(jpeg, 26, 1)!)).toBeGreaterThan(35);
    expect(await psnrAgainstLibjpeg(jpeg, decodeJpegScaled(jpeg, 51, 1)!)).toBeGreaterThan(35);
    expect(decodeJpegScaled(jpeg, 102, 1)).toBeNull();
  });

  it('a progressive picture (successive approximation, restarts) comes out as its baseline twin', () => {
    const baseline = decodeJpegScaled(fixture('baseline-420-restart.jpg'), 51, 1)!;
    const progressive = decodeJpegScaled(fixture('progressive-420-restart.jpg'), 51, 1)!;
    const diff = baseline.rgba.reduce((max, v, i) => Math.max(max, Math.abs(v - progressive.rgba[i]!)), 0);
    expect(diff).toBeLessThanOrEqual(1);
  });

  it.each([
    ['baseline 4:2:0', { chromaSubsampling: '4:2:0' }],
    ['baseline 4:4:4', { chromaSubsampling: '4:4:4' }],
    ['progressive 4:2:0', { progressive: true }],
    ['mozjpeg (optimised progressive scans, trellis)', { mozjpeg: true }],
  ] as const)('decodes a %s JPEG written by sharp', async (_, options) => {
    const jpeg = new Uint8Array(
      await photo(640, 480)
        .jpeg({ quality: 90, ...options })
        .toBuffer(),
    );
    for (const width of [80, 160, 320]) {
      const out = decodeJpegScaled(jpeg, width, 1)!;
      expect(out.width).toBe(width);
      expect(await psnrAgainstLibjpeg(jpeg, out)).toBeGreaterThan(35);
    }
  });

  it('leaves to photon what it does not take: arithmetic coding, no shrink, big progressive 4:4:4', () => {
    expect(decodeJpegScaled(fixture('arithmetic.jpg'), 26, 1)).toBeNull();
    expect(decodeJpegScaled(fixture('baseline-422.jpg'), 150, 1)).toBeNull();
    // All 64 coefficients of 4:4:4 take 6 bytes a pixel: more than photon's RGBA.
    expect(decodeJpegScaled(fixture('progressive-444.jpg'), 26, 1)).toBeNull();
  });

  it('refuses what is not a JPEG or has no picture', () => {
    expect(() => decodeJpegScaled(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 1, 1)).toThrow(JpegError);
    expect(() => decodeJpegScaled(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), 1, 1)).toThrow(JpegError);
  });

  it('never throws anything but JpegError, and always ends, on damaged JPEGs', () => {
    const sources = ['baseline-420-restart.jpg', 'progressive-420-restart.jpg', 'progressive-grey.jpg'].map(fixture);
    fc.assert(
      fc.property(
        fc.constantFrom(...sources),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        fc.option(fc.nat(), { nil: undefined }),
        (source, edits, cut) => {
          const bytes = source.slice(0, cut === undefined ? undefined : 2 + (cut % source.length));
          for (const [at, value] of edits) bytes[at % bytes.length] = value;
          try {
            const out = decodeJpegScaled(bytes, 26, 1);
            if (out) expect(out.rgba.length).toBe(out.width * out.height * 4);
          } catch (err) {
            expect(err).toBeInstanceOf(JpegError);
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('refuses more scans or segments than the limits (a flood), baseline and progressive', () => {
    const legal = decodeJpegScaled(jpegScanFlood({ scans: MAX_JPEG_SCANS - 1, progressive: true }), 128, 128);
    expect(legal && [legal.width, legal.height]).toEqual([128, 128]);
    expect(() => decodeJpegScaled(jpegScanFlood({ scans: MAX_JPEG_SCANS, progressive: true }), 128, 128)).toThrow(
      JpegLimitError,
    );
    // A sequential frame codes each component in one scan: a second scan of a grey picture is a flood.
    expect(decodeJpegScaled(jpegScanFlood({ scans: 0 }), 128, 128)).not.toBeNull();
    expect(() => decodeJpegScaled(jpegScanFlood({ scans: 1 }), 128, 128)).toThrow(JpegLimitError);
    expect(() => decodeJpegScaled(jpegMarkerFlood(MAX_JPEG_SEGMENTS), 2, 2)).toThrow(JpegLimitError);
    // Restart markers are not scans.
    expect(decodeJpegScaled(jpegScanFlood({ scans: 0, restarts: 5000 }), 128, 128)).not.toBeNull();
  });

  it('refuses a declared size beyond 16 megapixels before allocating for it', () => {
    const jpeg = fixture('baseline-422.jpg');
    const sof = jpeg.findIndex((b, i) => b === 0xff && jpeg[i + 1] === 0xc0);
    jpeg.set([0xff, 0xff, 0xff, 0xff], sof + 5); // 65535×65535
    expect(decodeJpegScaled(jpeg, 100, 100)).toBeNull();
  });
});

describe('photon codec with the scaled decoder', () => {
  it('takes the JPEG the API contract turns and checks (so that test covers this decoder on both targets)', () => {
    const out = decodeJpegScaled(withExifOrientation(JPEG_QUADRANTS_800x400, 6), 320, 160);
    expect(out && [out.width, out.height]).toEqual([400, 200]);
  });

  const codec = createPhotonImageCodec();

  it('decodes a large JPEG at the shrink that covers the size wanted, and at full size without a wish', async () => {
    const jpeg = new Uint8Array(await photo(1600, 1200).jpeg({ quality: 85 }).toBuffer());
    const small = codec.decode(jpeg, { width: 400, height: 300 });
    const full = codec.decode(jpeg);
    try {
      expect([small.width, small.height]).toEqual([400, 300]);
      expect([full.width, full.height]).toEqual([1600, 1200]);
    } finally {
      small.free();
      full.free();
    }
  });

  it('never hands a flood the scaled decoder refused to photon (its cost grows the same way)', () => {
    expect(() => codec.decode(jpegScanFlood({ scans: 4000 }), { width: 128, height: 128 })).toThrow(JpegLimitError);
  });

  it('falls back to photon for kinds the scaled decoder leaves alone', async () => {
    const png = new Uint8Array(await photo(64, 48).png().toBuffer());
    const image = codec.decode(png, { width: 8, height: 6 });
    expect([image.width, image.height]).toEqual([64, 48]);
    image.free();
  });
});

describe('reduced IDCT', () => {
  it('the unrolled 1×1, 2×2 and 4×4 transforms equal the N-point IDCT by its definition', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 2, 4),
        fc.array(fc.integer({ min: -1024, max: 1023 }), { minLength: 64, maxLength: 64 }),
        (n, values) => {
          const coefs = Int32Array.from(values);
          const fast = new Uint8Array(64);
          const slow = new Uint8Array(64);
          idctBlock(coefs, n, n, fast, 8, 0, 0);
          idctGeneric(coefs, n, n, slow, 0, 8);
          for (let i = 0; i < 64; i++) expect(Math.abs(fast[i]! - slow[i]!)).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 500 },
    );
  });
});
