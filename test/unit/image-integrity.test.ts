import fc from 'fast-check';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_GIF_FRAMES,
  MAX_JPEG_SCANS,
  MAX_JPEG_SEGMENTS,
  MAX_PNG_CHUNKS,
  MAX_WEBP_FRAMES,
} from '../../worker/src/core/domain/image-limits.js';
import { readImageHeader } from '../../worker/src/core/media/image-header.js';
import {
  forDecoding,
  inspectStructure,
  isHostile,
  type StructureVerdict,
} from '../../worker/src/core/media/image-integrity.js';
import {
  gifFrameFlood,
  gifFrameOutsideScreen,
  jpegMarkerFlood,
  jpegScanFlood,
  pngAncillaryBomb,
  pngChunk,
  pngChunkFlood,
  pngWith,
  webpAnimation,
  webpCanvasLie,
} from '../support/decode-bombs.js';
import {
  GIF_1x1,
  gifWithFrames,
  JPEG_400x300,
  JPEG_QUADRANTS,
  PNG_1x1,
  PNG_QUADRANTS,
  pngWithScript,
  WEBP_1x1,
} from '../support/images.js';

const check = (bytes: Uint8Array): StructureVerdict => {
  const header = readImageHeader(bytes);
  if (!header) throw new Error('no header');
  return inspectStructure(bytes, header.contentType);
};
const problem = (bytes: Uint8Array) => {
  const v = check(bytes);
  return v.ok ? 'ok' : v.problem;
};

const gradient = (width: number, height: number, channels: 3 | 4 = 3) => {
  const raw = Buffer.alloc(width * height * channels);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7) & 255;
  return sharp(raw, { raw: { width, height, channels } });
};

/** What real encoders write: every one of these must pass whole. */
const made: [string, Uint8Array][] = [];
beforeAll(async () => {
  const out = async (name: string, p: Promise<Buffer>) => made.push([name, new Uint8Array(await p)]);
  await out('JPEG baseline (libjpeg)', gradient(96, 64).jpeg().toBuffer());
  await out('JPEG progressive (libjpeg)', gradient(96, 64).jpeg({ progressive: true }).toBuffer());
  await out('JPEG mozjpeg (optimised scans)', gradient(96, 64).jpeg({ mozjpeg: true }).toBuffer());
  await out('PNG palette with transparency', gradient(32, 32, 4).png({ palette: true }).toBuffer());
  await out('PNG interlaced', gradient(32, 32).png({ progressive: true }).toBuffer());
  await out('WebP lossy', gradient(64, 48).webp().toBuffer());
  await out('WebP lossless', gradient(64, 48).webp({ lossless: true }).toBuffer());
  await out('WebP with alpha (VP8X, ALPH)', gradient(64, 48, 4).webp().toBuffer());
  await out('GIF', gradient(32, 16).gif().toBuffer());
});

const FIXTURES = [
  ['JPEG', JPEG_400x300],
  ['JPEG (4:4:4)', JPEG_QUADRANTS],
  ['PNG', PNG_1x1],
  ['PNG (quadrants)', PNG_QUADRANTS],
  ['GIF', GIF_1x1],
  ['animated GIF', gifWithFrames(5)],
  ['WebP', WEBP_1x1],
] as const;

describe('inspectStructure', () => {
  it.each(FIXTURES)('accepts a whole %s and refuses every cut of it', (_, bytes) => {
    expect(check(bytes)).toEqual({ ok: true });
    const type = readImageHeader(bytes)!.contentType;
    for (let cut = 0; cut < bytes.length; cut++) {
      if (inspectStructure(bytes.subarray(0, cut), type).ok) throw new Error(`${type} cut at ${cut} passed`);
    }
  });

  it('accepts what real encoders write, whose decoded size is the header’s', async () => {
    const { PhotonImage } = await import('@cf-wasm/photon');
    for (const [name, bytes] of made) {
      expect([name, check(bytes)]).toEqual([name, { ok: true }]);
      const header = readImageHeader(bytes)!;
      const decoded = PhotonImage.new_from_byteslice(forDecoding(bytes, header.contentType));
      expect([name, decoded.get_width(), decoded.get_height()]).toEqual([name, header.width, header.height]);
      decoded.free();
    }
  });

  it('accepts a whole image with a tail appended (polyglots are served as images, never decoded as anything else)', () => {
    expect(check(pngWithScript())).toEqual({ ok: true });
  });

  it('JPEG: caps scans (one per component when sequential), not restart markers, and segments of any kind', () => {
    expect(problem(jpegScanFlood({ scans: 0 }))).toBe('ok');
    expect(check(jpegScanFlood({ scans: 1 }))).toMatchObject({ problem: 'flood', message: /scans/ });
    expect(problem(jpegScanFlood({ scans: MAX_JPEG_SCANS - 1, progressive: true }))).toBe('ok');
    expect(check(jpegScanFlood({ scans: MAX_JPEG_SCANS, progressive: true }))).toMatchObject({ problem: 'flood' });
    expect(problem(jpegScanFlood({ scans: 4000 }))).toBe('flood');
    expect(problem(jpegScanFlood({ scans: 4000, progressive: true }))).toBe('flood');
    expect(problem(jpegScanFlood({ scans: 0, restarts: 10_000 }))).toBe('ok');
    expect(problem(jpegMarkerFlood(MAX_JPEG_SEGMENTS - 10))).toBe('ok');
    expect(check(jpegMarkerFlood(MAX_JPEG_SEGMENTS))).toMatchObject({ problem: 'flood', message: /segments/ });
    expect(problem(jpegMarkerFlood(MAX_JPEG_SEGMENTS, 'comment'))).toBe('flood');
  });

  it('JPEG: one frame header only; a height redefined by DNL is a mismatch', () => {
    const jpeg = jpegScanFlood({ scans: 0 });
    const sof = jpeg.indexOf(0xc0, 2) - 1;
    const length = (jpeg[sof + 2]! << 8) | jpeg[sof + 3]!;
    const twice = new Uint8Array([...jpeg.subarray(0, sof + 2 + length), ...jpeg.subarray(sof)]);
    expect(check(twice)).toMatchObject({ problem: 'mismatch' });
    const eoi = jpeg.length - 2;
    const dnl = new Uint8Array([...jpeg.subarray(0, eoi), 0xff, 0xdc, 0, 4, 0x40, 0, 0xff, 0xd9]);
    expect(check(dnl)).toMatchObject({ problem: 'mismatch' });
    const gap = new Uint8Array([...jpeg.subarray(0, sof), 0x00, ...jpeg.subarray(sof)]);
    // The header reader stops at such a gap; a decoder that skips garbage would find the frame behind it.
    expect(inspectStructure(gap, 'image/jpeg')).toMatchObject({ problem: 'malformed' });
  });

  it('WebP: the bitstream must be the size of the canvas every check reads', () => {
    expect(problem(webpCanvasLie({ canvas: [40, 30], bitstream: [40, 30] }))).toBe('ok');
    expect(check(webpCanvasLie())).toMatchObject({ problem: 'mismatch', message: /1×1.*16383×16383/ });
    expect(problem(webpCanvasLie({ lossless: true }))).toBe('mismatch');
    expect(problem(webpCanvasLie({ canvas: [100, 100], bitstream: [50, 50] }))).toBe('mismatch');
  });

  it('WebP animations: frames inside the canvas, of their declared size, and not too many', () => {
    expect(problem(webpAnimation())).toBe('ok');
    expect(problem(webpAnimation({ canvas: [1, 1], frame: [16383, 16383] }))).toBe('mismatch');
    expect(problem(webpAnimation({ canvas: [16, 16], frame: [16, 16], offset: [2, 0] }))).toBe('mismatch');
    expect(problem(webpAnimation({ frames: MAX_WEBP_FRAMES }))).toBe('ok');
    expect(problem(webpAnimation({ frames: MAX_WEBP_FRAMES + 1 }))).toBe('flood');
  });

  it('PNG: caps chunks (IDAT or not); image data in one run; compressed ancillary chunks never reach the decoder', async () => {
    expect(problem(pngChunkFlood(MAX_PNG_CHUNKS - 3))).toBe('ok');
    expect(check(pngChunkFlood(MAX_PNG_CHUNKS))).toMatchObject({ problem: 'flood', message: /chunks/ });
    expect(problem(pngChunkFlood(MAX_PNG_CHUNKS, 'idat'))).toBe('flood');
    const idat = pngChunk('IDAT', new Uint8Array(0));
    const split = pngWith([], [idat, pngChunk('tEXt', new Uint8Array(2)), idat]);
    expect(problem(split)).toBe('malformed'); // IDAT, tEXt, then IDAT again: two runs
    for (const kind of ['iCCP', 'zTXt', 'iTXt'] as const) {
      const bomb = await pngAncillaryBomb(kind, 64 * 2 ** 20);
      expect(problem(bomb)).toBe('ok');
      const trimmed = forDecoding(bomb, 'image/png');
      expect(trimmed.length).toBeLessThan(100);
      expect(new TextDecoder('latin1').decode(trimmed)).not.toContain(kind);
      expect(check(trimmed)).toEqual({ ok: true });
    }
  });

  it('PNG: the decoder keeps what changes pixels (palette, transparency)', () => {
    const [, palette] = made.find(([name]) => name.startsWith('PNG palette'))!;
    const text = (b: Uint8Array) => new TextDecoder('latin1').decode(b);
    expect(text(forDecoding(palette, 'image/png'))).toMatch(/PLTE[\s\S]*tRNS[\s\S]*IDAT[\s\S]*IEND/);
  });

  it('GIF: frames inside the logical screen, and not too many', () => {
    expect(problem(gifFrameFlood(MAX_GIF_FRAMES))).toBe('ok');
    expect(problem(gifFrameFlood(MAX_GIF_FRAMES + 1))).toBe('flood');
    expect(check(gifFrameOutsideScreen())).toMatchObject({ problem: 'mismatch' });
    expect(problem(gifFrameOutsideScreen({ screen: [10, 10], frame: [5, 5], offset: [6, 0] }))).toBe('mismatch');
    expect(problem(gifFrameOutsideScreen({ screen: [10, 10], frame: [5, 5], offset: [5, 5] }))).toBe('ok');
    const garbage = GIF_1x1.slice();
    garbage[19] = 0x99;
    expect(check(garbage)).toMatchObject({ problem: 'malformed' });
  });

  it('refuses floods and size lies at upload, keeps damaged files', () => {
    expect(isHostile(check(jpegScanFlood({ scans: 4000 })))).toBe(true);
    expect(isHostile(check(webpCanvasLie()))).toBe(true);
    expect(isHostile(check(JPEG_400x300.subarray(0, 1500)))).toBe(false);
    expect(isHostile(check(JPEG_400x300))).toBe(false);
  });

  it('never throws and always ends, on damaged and random bytes of every type', () => {
    const sources = [
      ...FIXTURES.map(([, b]) => b),
      ...made.map(([, b]) => b),
      webpAnimation(),
      jpegScanFlood({ scans: 3 }),
    ];
    const types = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...sources),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        fc.option(fc.nat(), { nil: undefined }),
        fc.constantFrom(...types),
        (source, edits, cut, type) => {
          const bytes = source.slice(0, cut === undefined ? undefined : cut % (source.length + 1));
          for (const [at, value] of edits) if (bytes.length) bytes[at % bytes.length] = value;
          const verdict = inspectStructure(bytes, type);
          expect(typeof verdict.ok).toBe('boolean');
          if (verdict.ok && type === 'image/png')
            expect(inspectStructure(forDecoding(bytes, type), type).ok).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), fc.constantFrom(...types), (bytes, type) => {
        expect(typeof inspectStructure(bytes, type).ok).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });
});
