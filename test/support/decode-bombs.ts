/**
 * Hostile images that are small on the wire and costly to decode, built by
 * hand so that Node tests, workerd tests and `npm run reliability` all make
 * the same bytes (no imports: Node runs this file with type stripping).
 */

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

const be16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const le16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const le24 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];
const le32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];

// ---------------------------------------------------------------- JPEG

const segment = (marker: number, body: number[]) => Uint8Array.from([0xff, marker, ...be16(body.length + 2), ...body]);

/**
 * A greyscale baseline (or progressive) JPEG of `width`×`height` whose entropy
 * data is a few zero bytes: with one-symbol Huffman tables (DC 0, AC end of
 * block) every block is two zero bits, so decoders paint it grey whatever the
 * size. `scans` scan headers follow the first; with `restartInterval`, the
 * first scan's data carries that many RST markers (which are not scans).
 */
export function jpegScanFlood(
  options: { width?: number; height?: number; scans?: number; progressive?: boolean; restarts?: number } = {},
): Uint8Array {
  const { width = 1024, height = 1024, scans = 4000, progressive = false, restarts = 0 } = options;
  const quant = segment(0xdb, [0x00, ...new Array(64).fill(1)]);
  const frame = segment(progressive ? 0xc2 : 0xc0, [8, ...be16(height), ...be16(width), 1, 1, 0x11, 0]);
  const oneCode = [1, ...new Array(15).fill(0), 0]; // one code of length 1 for symbol 0
  const huffman = segment(0xc4, [0x00, ...oneCode, 0x10, ...oneCode]);
  // Progressive: a DC-first scan, then AC scans of band 1–63 (each an end-of-band); baseline repeats the scan.
  const firstScan = segment(0xda, [1, 1, 0x00, 0, progressive ? 0 : 63, 0]);
  const laterScan = segment(0xda, [1, 1, 0x00, progressive ? 1 : 0, 63, 0]);
  const data: number[] = [0, 0, 0, 0];
  const dri = restarts > 0 ? [segment(0xdd, be16(1))] : [];
  for (let i = 0; i < restarts; i++) data.push(0xff, 0xd0 + (i % 8), 0);
  const later = concat([laterScan, Uint8Array.from([0, 0])]);
  const repeated = new Uint8Array(later.length * scans);
  for (let i = 0; i < scans; i++) repeated.set(later, i * later.length);
  const parts = [Uint8Array.from([0xff, 0xd8]), quant, frame, huffman, ...dri, firstScan, Uint8Array.from(data)];
  return concat([...parts, repeated, Uint8Array.from([0xff, 0xd9])]);
}

/** A small JPEG followed by `count` comment (or DHT) segments before its scan: a marker flood. */
export function jpegMarkerFlood(count: number, kind: 'comment' | 'huffman' = 'huffman'): Uint8Array {
  const base = jpegScanFlood({ width: 16, height: 16, scans: 0 });
  const sos = base.indexOf(0xda, 2) - 1;
  const oneCode = [1, ...new Array(15).fill(0), 0];
  const extra = kind === 'huffman' ? segment(0xc4, [0x00, ...oneCode]) : segment(0xfe, [0x41]);
  const flood = new Uint8Array(extra.length * count);
  for (let i = 0; i < count; i++) flood.set(extra, i * extra.length);
  return concat([base.subarray(0, sos), flood, base.subarray(sos)]);
}

// ---------------------------------------------------------------- WebP

function riffChunk(fourcc: string, payload: Uint8Array): Uint8Array {
  const pad = payload.length & 1 ? [0] : [];
  return concat([ascii(fourcc), Uint8Array.from(le32(payload.length)), payload, Uint8Array.from(pad)]);
}

function riff(chunks: Uint8Array[]): Uint8Array {
  const body = concat([ascii('WEBP'), ...chunks]);
  return concat([ascii('RIFF'), Uint8Array.from(le32(body.length)), body]);
}

/** A lossy key frame header saying `width`×`height`, then `filler` bytes of (meaningless) partition data. */
export function vp8Chunk(width: number, height: number, filler = 64): Uint8Array {
  const partition = filler;
  const tag = (0 << 0) | (0 << 1) | (1 << 4) | (partition << 5); // key frame, version 0, shown
  const header = [tag & 0xff, (tag >> 8) & 0xff, (tag >> 16) & 0xff, 0x9d, 0x01, 0x2a, ...le16(width), ...le16(height)];
  return riffChunk('VP8 ', concat([Uint8Array.from(header), new Uint8Array(filler)]));
}

/** A lossless bitstream header saying `width`×`height`. */
export function vp8lChunk(width: number, height: number, filler = 64): Uint8Array {
  const bits = (width - 1) | ((height - 1) << 14); // 14 + 14 bits, alpha 0, version 0
  return riffChunk('VP8L', concat([Uint8Array.from([0x2f, ...le32(bits)]), new Uint8Array(filler)]));
}

const vp8x = (width: number, height: number, flags = 0) =>
  riffChunk('VP8X', Uint8Array.from([flags, 0, 0, 0, ...le24(width - 1), ...le24(height - 1)]));

/**
 * A WebP whose VP8X canvas says one size and whose bitstream says another
 * (`lossless`: VP8L, else VP8): a decoder allocates for the bitstream.
 */
export function webpCanvasLie(
  options: { canvas?: [number, number]; bitstream?: [number, number]; lossless?: boolean } = {},
): Uint8Array {
  const { canvas = [1, 1], bitstream = [16383, 16383], lossless = false } = options;
  const [w, h] = bitstream;
  return riff([vp8x(canvas[0], canvas[1]), lossless ? vp8lChunk(w, h) : vp8Chunk(w, h)]);
}

/** An animated WebP with `frames` frames of `frame` size on a `canvas`; a frame may lie outside it. */
export function webpAnimation(
  options: { canvas?: [number, number]; frame?: [number, number]; frames?: number; offset?: [number, number] } = {},
): Uint8Array {
  const { canvas = [16, 16], frame = [16, 16], frames = 2, offset = [0, 0] } = options;
  const anim = riffChunk('ANIM', Uint8Array.from([0, 0, 0, 0, 0, 0]));
  const anmf = riffChunk(
    'ANMF',
    concat([
      Uint8Array.from([
        ...le24(offset[0] / 2),
        ...le24(offset[1] / 2),
        ...le24(frame[0] - 1),
        ...le24(frame[1] - 1),
        ...le24(100),
        0,
      ]),
      vp8lChunk(frame[0], frame[1], 8),
    ]),
  );
  return riff([vp8x(canvas[0], canvas[1], 0x02), anim, ...new Array(frames).fill(anmf)]);
}

// ---------------------------------------------------------------- PNG

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(parts: Uint8Array[]): number {
  let c = 0xffffffff;
  for (const p of parts) for (let i = 0; i < p.length; i++) c = CRC_TABLE[(c ^ p[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const t = ascii(type);
  return concat([Uint8Array.from(be32(data.length)), t, data, Uint8Array.from(be32(crc32([t, data])))]);
}

const PNG_SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// A 1×1 RGBA pixel, zlib-compressed: filter byte 0, then 00 00 00 ff.
const ONE_PIXEL_IDAT = Uint8Array.from([0x78, 0x9c, 0x63, 0x60, 0x60, 0x60, 0xf8, 0x0f, 0x00, 0x01, 0x04, 0x01, 0x00]);

/** A 1×1 RGBA PNG with `extra` chunks between IHDR and IDAT. */
export function pngWith(extra: Uint8Array[], idat: Uint8Array[] = [pngChunk('IDAT', ONE_PIXEL_IDAT)]): Uint8Array {
  const ihdr = pngChunk('IHDR', Uint8Array.from([...be32(1), ...be32(1), 8, 6, 0, 0, 0]));
  return concat([PNG_SIGNATURE, ihdr, ...extra, ...idat, pngChunk('IEND', new Uint8Array(0))]);
}

/**
 * An RGB PNG whole in structure (upload and the variants' checks pass it)
 * whose image data is not zlib data: every decoder fails on it.
 */
export function pngWithBrokenPixels(width: number, height: number): Uint8Array {
  const ihdr = pngChunk('IHDR', Uint8Array.from([...be32(width), ...be32(height), 8, 2, 0, 0, 0]));
  const idat = pngChunk('IDAT', ascii('these are not compressed pixels'));
  return concat([PNG_SIGNATURE, ihdr, idat, pngChunk('IEND', new Uint8Array(0))]);
}

/** zlib (RFC 1950) of `size` zero bytes, streamed so that the zeros never sit in memory at once. */
export async function zlibZeros(size: number): Promise<Uint8Array> {
  const stream = new CompressionStream('deflate');
  const writer = stream.writable.getWriter();
  const chunks: Uint8Array[] = [];
  const reading = (async () => {
    const reader = stream.readable.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      chunks.push(value);
    }
  })();
  const block = new Uint8Array(Math.min(size, 1 << 20));
  for (let left = size; left > 0; left -= block.length)
    await writer.write(left >= block.length ? block : block.subarray(0, left));
  await writer.close();
  await reading;
  return concat(chunks);
}

/** A 1×1 PNG whose iCCP, zTXt or iTXt chunk inflates to `inflated` bytes. */
export async function pngAncillaryBomb(kind: 'iCCP' | 'zTXt' | 'iTXt', inflated: number): Promise<Uint8Array> {
  const z = await zlibZeros(inflated);
  const head =
    kind === 'iCCP'
      ? ascii('icc\0\0') // name, NUL, compression method 0
      : kind === 'zTXt'
        ? ascii('Comment\0\0')
        : ascii('Comment\0\x01\0\0\0'); // keyword, compressed, method 0, empty language and translated keyword
  return pngWith([pngChunk(kind, concat([head, z]))]);
}

/** A 1×1 PNG with `count` empty ancillary chunks, or its image data split into `count` IDAT chunks. */
export function pngChunkFlood(count: number, kind: 'ancillary' | 'idat' = 'ancillary'): Uint8Array {
  if (kind === 'ancillary') return pngWith(new Array(count).fill(pngChunk('tEXt', ascii('k\0'))));
  const idat = [pngChunk('IDAT', ONE_PIXEL_IDAT), ...new Array(count - 1).fill(pngChunk('IDAT', new Uint8Array(0)))];
  return pngWith([], idat);
}

// ---------------------------------------------------------------- GIF

const GIF_HEAD = (w: number, h: number) =>
  Uint8Array.from([...ascii('GIF89a'), ...le16(w), ...le16(h), 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff]);
// One image: descriptor, LZW minimum code size 2, one sub-block (clear, index 0, end), block end.
const gifImage = (x: number, y: number, w: number, h: number) =>
  Uint8Array.from([0x2c, ...le16(x), ...le16(y), ...le16(w), ...le16(h), 0, 2, 2, 0x44, 0x01, 0]);
const GIF_CONTROL = Uint8Array.from([0x21, 0xf9, 4, 0, 0, 0, 0, 0]);

/** A 1×1 GIF with `frames` frames (each a control extension and an image). */
export function gifFrameFlood(frames: number): Uint8Array {
  const parts = [GIF_HEAD(1, 1)];
  for (let i = 0; i < frames; i++) parts.push(GIF_CONTROL, gifImage(0, 0, 1, 1));
  parts.push(Uint8Array.from([0x3b]));
  return concat(parts);
}

/** A GIF whose logical screen is `screen` but whose one frame is `frame` (at an offset). */
export function gifFrameOutsideScreen(
  options: { screen?: [number, number]; frame?: [number, number]; offset?: [number, number] } = {},
): Uint8Array {
  const { screen = [1, 1], frame = [65535, 65535], offset = [0, 0] } = options;
  return concat([
    GIF_HEAD(screen[0], screen[1]),
    GIF_CONTROL,
    gifImage(offset[0], offset[1], frame[0], frame[1]),
    Uint8Array.from([0x3b]),
  ]);
}

/** Adam7: each pass's first column and row, and its steps across and down. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/**
 * A blank (all zero) PNG, whole and well formed: its image data is filter
 * bytes and zeros, so it inflates to `height` rows of `width` pixels at
 * `bitDepth` × the colour type's samples from a file of about a thousandth
 * of that. 8-bit grey by default; `interlaced`: Adam7.
 */
export async function blankPng(options: {
  width: number;
  height: number;
  bitDepth?: 8 | 16;
  colourType?: 0 | 2 | 6;
  interlaced?: boolean;
}): Promise<Uint8Array> {
  const { width, height, bitDepth = 8, colourType = 0, interlaced = false } = options;
  const bytesPerPixel = (bitDepth / 8) * { 0: 1, 2: 3, 6: 4 }[colourType];
  const rowBytes = (columns: number) => 1 + columns * bytesPerPixel;
  let raw = 0;
  if (!interlaced) raw = height * rowBytes(width);
  else
    for (const [x0, y0, dx, dy] of ADAM7) {
      const columns = Math.ceil(Math.max(0, width - x0) / dx);
      const rows = Math.ceil(Math.max(0, height - y0) / dy);
      if (columns > 0) raw += rows * rowBytes(columns);
    }
  const ihdr = [...be32(width), ...be32(height), bitDepth, colourType, 0, 0, interlaced ? 1 : 0];
  const idat = pngChunk('IDAT', await zlibZeros(raw));
  return concat([PNG_SIGNATURE, pngChunk('IHDR', Uint8Array.from(ihdr)), idat, pngChunk('IEND', new Uint8Array(0))]);
}

/**
 * The depth bomb: a 4000×4000 16-bit RGBA interlaced PNG (8 bytes a pixel),
 * whose image data inflates to ~128 MB from a file of ~125 KB.
 */
export const pngDepthBomb = (options: { width?: number; height?: number } = {}) =>
  blankPng({ width: 4000, height: 4000, ...options, bitDepth: 16, colourType: 6, interlaced: true });
