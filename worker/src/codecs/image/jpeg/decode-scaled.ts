import { MAX_JPEG_SCANS, MAX_JPEG_SEGMENTS } from '../../../core/domain/image-limits.js';
import { BitReader, HuffmanTable, JpegError, JpegLimitError } from './bit-reader.js';
import { ZIGZAG } from './reduced-idct.js';
import { type Component, decodeScan, type Frame, finishProgressive } from './scans.js';

/**
 * JPEG decoding straight to a reduced size — 1/2, 1/4 or 1/8, the largest
 * shrink that still covers the size asked for — as libjpeg does for sharp's
 * shrink-on-load. A 2000×1500 photo wanted at 400 px is decoded at 500×375:
 * the entropy decoding is the same, but the IDCT, colour conversion and the
 * resize after it work on 1/16 of the pixels.
 *
 * Handles what cameras and editors write: baseline, extended and progressive
 * Huffman JPEGs of 8 bits, grey or three components (YCbCr, or RGB per the
 * Adobe marker), any sampling whose chroma can be scaled to match. For
 * anything else (arithmetic coding, lossless, 12-bit, CMYK, no shrink worth
 * having) it returns null and the caller decodes the usual way.
 */

export interface ScaledPixels {
  rgba: Uint8Array;
  width: number;
  height: number;
}

/**
 * Larger frames are left to the caller's checks and decoder (the variants
 * service makes no variant of anything over 16 MP either): the buffers here
 * are sized from the header, so a forged one must not size them.
 */
const MAX_PIXELS = 16_000_000;

const SIDES = new Set([1, 2, 4, 8]);

const u16 = (b: Uint8Array, o: number) => (b[o]! << 8) | b[o + 1]!;

/** Eighths kept across (8 = full size): the smallest that still covers the wanted size. */
export function scaleFor(width: number, height: number, minWidth: number, minHeight: number): number {
  for (const n of [1, 2, 4]) {
    if (Math.ceil((width * n) / 8) >= minWidth && Math.ceil((height * n) / 8) >= minHeight) return n;
  }
  return 8;
}

interface State {
  quant: (Uint16Array | undefined)[];
  dc: (HuffmanTable | undefined)[];
  ac: (HuffmanTable | undefined)[];
  restartInterval: number;
  adobeTransform: number; // −1 when no Adobe marker
  frame?: Frame & { width: number; height: number; components: Component[]; scale: number };
  scans: number;
}

function readQuant(b: Uint8Array, o: number, end: number, st: State) {
  while (o < end) {
    const wide = b[o]! >> 4;
    const id = b[o]! & 15;
    if (id > 3 || wide > 1) throw new JpegError('bad quantization table');
    const table = new Uint16Array(64);
    for (let k = 0; k < 64; k++) table[ZIGZAG[k]!] = wide ? u16(b, o + 1 + 2 * k) : b[o + 1 + k]!;
    st.quant[id] = table;
    o += 1 + 64 * (wide + 1);
  }
}

function readHuffman(b: Uint8Array, o: number, end: number, st: State) {
  while (o < end) {
    const cls = b[o]! >> 4;
    const id = b[o]! & 15;
    if (cls > 1 || id > 3 || o + 17 > end) throw new JpegError('bad Huffman table');
    const counts = b.subarray(o + 1, o + 17);
    const total = counts.reduce((sum, n) => sum + n, 0);
    if (total > 256 || o + 17 + total > end) throw new JpegError('bad Huffman table');
    (cls === 0 ? st.dc : st.ac)[id] = new HuffmanTable(counts, b.slice(o + 17, o + 17 + total));
    o += 17 + total;
  }
}

/** The frame header, or null when this decoder leaves the picture to another. */
function readFrame(
  b: Uint8Array,
  o: number,
  marker: number,
  minWidth: number,
  minHeight: number,
): State['frame'] | null {
  if (b[o] !== 8) return null;
  const height = u16(b, o + 1);
  const width = u16(b, o + 3);
  const count = b[o + 5]!;
  if (width === 0 || height === 0 || width * height > MAX_PIXELS || (count !== 1 && count !== 3)) return null;
  const scale = scaleFor(width, height, minWidth, minHeight);
  if (scale === 8) return null;
  const raw = [];
  for (let i = 0; i < count; i++) {
    const p = o + 6 + 3 * i;
    const h = b[p + 1]! >> 4;
    const v = b[p + 1]! & 15;
    if (h < 1 || h > 4 || v < 1 || v > 4 || b[p + 2]! > 3) throw new JpegError('bad frame header');
    raw.push({ id: b[p]!, h: count === 1 ? 1 : h, v: count === 1 ? 1 : v, tq: b[p + 2]! });
  }
  const hMax = Math.max(...raw.map((c) => c.h));
  const vMax = Math.max(...raw.map((c) => c.v));
  const mcusW = Math.ceil(width / (8 * hMax));
  const mcusH = Math.ceil(height / (8 * vMax));
  // Progressive pictures keep every coefficient until the last scan: where
  // that outweighs a full RGBA decode (4:4:4), photon's path costs less memory.
  const coefBytes = raw.reduce((sum, c) => sum + mcusW * c.h * mcusH * c.v * 128, 0);
  if (marker === 0xc2 && coefBytes > width * height * 4) return null;
  const components: Component[] = [];
  for (const c of raw) {
    if (hMax % c.h || vMax % c.v) return null;
    const nx = (scale * hMax) / c.h;
    const ny = (scale * vMax) / c.v;
    // Blocks shrink to 1, 2, 4 or 8 pixels a side (sampling factors of 3 would need others).
    if (!SIDES.has(nx) || !SIDES.has(ny)) return null;
    const blocksW = mcusW * c.h;
    const blocksH = mcusH * c.v;
    components.push({
      ...c,
      blocksW,
      blocksH,
      usedW: Math.ceil(Math.ceil((width * c.h) / hMax) / 8),
      usedH: Math.ceil(Math.ceil((height * c.v) / vMax) / 8),
      nx,
      ny,
      plane: new Uint8Array(blocksW * nx * blocksH * ny).fill(128),
      quant: null,
      coefs: marker === 0xc2 ? new Int16Array(blocksW * blocksH * 64) : null,
      pred: 0,
    });
  }
  return { progressive: marker === 0xc2, mcusW, mcusH, width, height, components, scale };
}

function readScan(b: Uint8Array, o: number, end: number, st: State): number {
  const frame = st.frame;
  if (!frame) throw new JpegError('scan before frame');
  // Each scan walks every block of the frame, even an empty one: a flood of them is refused, not decoded.
  // A sequential frame codes each component in one scan.
  if (st.scans >= (frame.progressive ? MAX_JPEG_SCANS : frame.components.length)) {
    throw new JpegLimitError('too many scans');
  }
  const count = b[o]!;
  if (count < 1 || count > 4 || o + 1 + 2 * count + 3 > end) throw new JpegError('bad scan header');
  const components: Component[] = [];
  const dc: (HuffmanTable | undefined)[] = [];
  const ac: (HuffmanTable | undefined)[] = [];
  for (let i = 0; i < count; i++) {
    const c = frame.components.find((fc) => fc.id === b[o + 1 + 2 * i]);
    if (!c || components.includes(c)) throw new JpegError('bad scan component');
    const q = st.quant[c.tq];
    if (!q) throw new JpegError('missing quantization table');
    if (!c.quant || !frame.progressive) c.quant = q;
    components.push(c);
    dc.push(st.dc[b[o + 2 + 2 * i]! >> 4]);
    ac.push(st.ac[b[o + 2 + 2 * i]! & 15]);
  }
  const p = o + 1 + 2 * count;
  const [ss, se, ah, al] = [b[p]!, b[p + 1]!, b[p + 2]! >> 4, b[p + 2]! & 15];
  if (frame.progressive) {
    const dcScan = ss === 0;
    if ((dcScan && se !== 0) || (!dcScan && (se < ss || se > 63 || count !== 1)) || al > 13)
      throw new JpegError('bad progressive scan');
    const needed = dcScan ? (ah === 0 ? dc : []) : ac;
    if (needed.some((t) => !t)) throw new JpegError('missing Huffman table');
  } else if (dc.some((t) => !t) || ac.some((t) => !t)) throw new JpegError('missing Huffman table');
  for (const c of components) c.pred = 0;
  const bits = new BitReader(b, end);
  decodeScan(bits, frame, { components, dc, ac, ss, se, ah, al, restartInterval: st.restartInterval });
  st.scans++;
  return bits.end();
}

// JFIF YCbCr → RGB in 16.16 fixed point, per chroma value (as libjpeg's tables).
const FIX = (x: number) => Math.round(x * 65536);
const CR_R = new Int32Array(256);
const CB_B = new Int32Array(256);
const CR_G = new Int32Array(256);
const CB_G = new Int32Array(256);
for (let i = 0; i < 256; i++) {
  const x = i - 128;
  CR_R[i] = (FIX(1.402) * x + 32768) >> 16;
  CB_B[i] = (FIX(1.772) * x + 32768) >> 16;
  CR_G[i] = -FIX(0.714136) * x;
  CB_G[i] = -FIX(0.344136) * x + 32768;
}
/** Clamping by lookup: index + 384 for sums in −384…639. */
const CLAMP = new Uint8Array(1024).map((_, i) => Math.max(0, Math.min(255, i - 384)));

/** YCbCr (JFIF) or RGB planes at the output scale → RGBA, cropped to the picture. */
function toRgba(frame: NonNullable<State['frame']>, rgb: boolean): ScaledPixels {
  const width = Math.ceil((frame.width * frame.scale) / 8);
  const height = Math.ceil((frame.height * frame.scale) / 8);
  const [c0, c1, c2] = frame.components;
  const stride = c0!.blocksW * c0!.nx;
  const out = new Uint8Array(width * height * 4);
  // One little-endian word per pixel: A B G R from the top byte down.
  const words = new Uint32Array(out.buffer);
  const yp = c0!.plane;
  const cbp = c1?.plane ?? yp;
  const crp = c2?.plane ?? yp;
  const grey = !c1 || !c2;
  let o = 0;
  for (let y = 0; y < height; y++) {
    for (let i = y * stride, end = i + width; i < end; i++, o++) {
      const Y = yp[i]!;
      let r: number;
      let g: number;
      let b: number;
      if (grey) r = g = b = Y;
      else if (rgb) [r, g, b] = [Y, cbp[i]!, crp[i]!];
      else {
        const cb = cbp[i]!;
        const cr = crp[i]!;
        r = CLAMP[Y + CR_R[cr]! + 384]!;
        g = CLAMP[Y + ((CB_G[cb]! + CR_G[cr]!) >> 16) + 384]!;
        b = CLAMP[Y + CB_B[cb]! + 384]!;
      }
      words[o] = (0xff000000 | (b << 16) | (g << 8) | r) >>> 0;
    }
  }
  return { rgba: out, width, height };
}

/**
 * The picture at the smallest power-of-two reduction not below
 * minWidth×minHeight, or null when this decoder does not take it. Throws
 * JpegError on damaged data; the work is bounded by the frame's block count
 * times the scans, which are capped (MAX_JPEG_SCANS), as are the segments.
 */
export function decodeJpegScaled(b: Uint8Array, minWidth: number, minHeight: number): ScaledPixels | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) throw new JpegError('not a JPEG');
  const st: State = { quant: [], dc: [], ac: [], restartInterval: 0, adobeTransform: -1, scans: 0 };
  let o = 2;
  let segments = 0;
  for (;;) {
    while (o < b.length && b[o] !== 0xff) o++; // tolerate garbage between segments, as libjpeg
    while (o < b.length && b[o] === 0xff) o++;
    if (o >= b.length) break;
    const marker = b[o++]!;
    if (marker === 0xd9) break;
    if (++segments > MAX_JPEG_SEGMENTS) throw new JpegLimitError('too many segments');
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    if (o + 2 > b.length) break;
    const end = o + u16(b, o);
    if (end > b.length || end < o + 2) throw new JpegError('bad segment length');
    const body = o + 2;
    if (marker === 0xdb) readQuant(b, body, end, st);
    else if (marker === 0xc4) readHuffman(b, body, end, st);
    else if (marker === 0xdd) st.restartInterval = u16(b, body);
    else if (marker === 0xee && end - body >= 12 && String.fromCharCode(...b.subarray(body, body + 5)) === 'Adobe')
      st.adobeTransform = b[body + 11]!;
    else if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      if (st.frame) throw new JpegError('second frame header');
      const frame = readFrame(b, body, marker, minWidth, minHeight);
      if (!frame) return null;
      st.frame = frame;
    } else if (marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return null;
    else if (marker === 0xda) {
      o = readScan(b, body, end, st);
      continue;
    }
    o = end;
  }
  const frame = st.frame;
  if (!frame || st.scans === 0) throw new JpegError('no picture data');
  if (frame.progressive) for (const c of frame.components) finishProgressive(c);
  const ids = frame.components.map((c) => c.id).join();
  const rgb = st.adobeTransform === 0 || (st.adobeTransform < 0 && ids === '82,71,66');
  return toRgba(frame, rgb);
}
