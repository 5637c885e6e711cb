import type { ImageContentType } from '../../wire/vocabulary.js';

/**
 * Type and dimensions from the first bytes alone, before anything decodes the
 * image: the declared type and file name are never trusted, and a pixel flood
 * is refused from its header.
 */
export interface ImageHeader {
  contentType: ImageContentType;
  extension: 'jpg' | 'png' | 'webp' | 'gif';
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, o: number) => (b[o]! << 8) | b[o + 1]!;
const u16le = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8);
const u24le = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16);
const u32be = (b: Uint8Array, o: number) => ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
const ascii = (b: Uint8Array, o: number, n: number) => String.fromCharCode(...b.subarray(o, o + n));

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function png(b: Uint8Array): ImageHeader | null {
  if (b.length < 24 || !PNG_SIGNATURE.every((v, i) => b[i] === v) || ascii(b, 12, 4) !== 'IHDR') return null;
  return { contentType: 'image/png', extension: 'png', width: u32be(b, 16), height: u32be(b, 20) };
}

function gif(b: Uint8Array): ImageHeader | null {
  if (b.length < 10) return null;
  const sig = ascii(b, 0, 6);
  if (sig !== 'GIF87a' && sig !== 'GIF89a') return null;
  return { contentType: 'image/gif', extension: 'gif', width: u16le(b, 6), height: u16le(b, 8) };
}

function webp(b: Uint8Array): ImageHeader | null {
  if (b.length < 30 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 4) !== 'WEBP') return null;
  const chunk = ascii(b, 12, 4);
  const base = { contentType: 'image/webp', extension: 'webp' } as const;
  if (chunk === 'VP8 ') {
    // Key frame start code 9d 01 2a precedes the 14-bit dimensions.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { ...base, width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null;
    const [b0, b1, b2, b3] = [b[21]!, b[22]!, b[23]!, b[24]!];
    return {
      ...base,
      width: 1 + (((b1 & 0x3f) << 8) | b0),
      height: 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6)),
    };
  }
  if (chunk === 'VP8X') return { ...base, width: 1 + u24le(b, 24), height: 1 + u24le(b, 27) };
  return null;
}

// SOF markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
const isStartOfFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function jpeg(b: Uint8Array): ImageHeader | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return null;
  let o = 2;
  while (o + 9 < b.length) {
    if (b[o] !== 0xff) return null;
    const marker = b[o + 1]!;
    if (marker === 0xff) {
      o += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      o += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end or scan before any frame header
    const length = u16be(b, o + 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      return { contentType: 'image/jpeg', extension: 'jpg', width: u16be(b, o + 7), height: u16be(b, o + 5) };
    }
    o += 2 + length;
  }
  return null;
}

/** Null when the bytes are none of JPEG, PNG, WebP, GIF, or the header is cut short. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  const header = jpeg(bytes) ?? png(bytes) ?? gif(bytes) ?? webp(bytes);
  if (!header || header.width < 1 || header.height < 1) return null;
  return header;
}
