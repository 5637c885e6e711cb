import type { ImageHeader } from './image-header.js';

/**
 * Whether an image's structure is whole, walked without decoding: every
 * segment, chunk or block fits in the file and the end marker is there.
 *
 * Why: photon panics (a wasm trap) on a truncated or broken file, and a
 * trapped wasm instance leaks what it held; enough traps corrupt it. So a
 * file that would trap is refused here, before it reaches the decoder.
 */
export function isStructurallyComplete(bytes: Uint8Array, type: ImageHeader['contentType']): boolean {
  switch (type) {
    case 'image/jpeg':
      return jpegComplete(bytes);
    case 'image/png':
      return pngComplete(bytes);
    case 'image/gif':
      return gifComplete(bytes);
    case 'image/webp':
      return webpComplete(bytes);
  }
}

/** Most GIF frames a variant is made from; beyond, the file is refused as a frame flood. */
export const MAX_GIF_FRAMES = 1000;

function jpegComplete(b: Uint8Array): boolean {
  let o = 2;
  while (o + 4 <= b.length) {
    if (b[o] !== 0xff) return false;
    const marker = b[o + 1]!;
    if (marker === 0xff) {
      o += 1;
      continue;
    }
    if (marker === 0xd9) return false;
    const length = (b[o + 2]! << 8) | b[o + 3]!;
    if (length < 2 || o + 2 + length > b.length) return false;
    if (marker === 0xda) {
      // Entropy-coded data stuffs every 0xFF as FF 00, so FF D9 after the
      // scan header is the real end of image (polyglot tails may follow).
      for (let i = o + 2 + length; i + 1 < b.length; i++) if (b[i] === 0xff && b[i + 1] === 0xd9) return true;
      return false;
    }
    o += 2 + length;
  }
  return false;
}

function pngComplete(b: Uint8Array): boolean {
  let o = 8;
  let sawData = false;
  while (o + 12 <= b.length) {
    const length = ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
    const type = String.fromCharCode(b[o + 4]!, b[o + 5]!, b[o + 6]!, b[o + 7]!);
    if (o + 12 + length > b.length) return false;
    if (type === 'IDAT') sawData = true;
    if (type === 'IEND') return sawData;
    o += 12 + length;
  }
  return false;
}

function gifComplete(b: Uint8Array): boolean {
  const frames = gifFrameCount(b);
  return frames !== null && frames > 0 && frames <= MAX_GIF_FRAMES;
}

/**
 * Frames of a GIF, counted by walking its blocks without decoding; null
 * when the walk does not reach the trailer. Stops counting past
 * MAX_GIF_FRAMES + 1, so a frame flood costs no more than that.
 */
export function gifFrameCount(b: Uint8Array): number | null {
  if (b.length < 13) return null;
  let o = 13;
  const flags = b[10]!;
  if (flags & 0x80) o += 3 * (1 << ((flags & 7) + 1));
  const skipSubBlocks = (p: number): number => {
    while (p < b.length) {
      const size = b[p]!;
      p += 1;
      if (size === 0) return p;
      p += size;
    }
    return -1;
  };
  let frames = 0;
  while (o < b.length) {
    const block = b[o]!;
    if (block === 0x3b) return frames; // trailer
    if (block === 0x21) {
      o = skipSubBlocks(o + 2);
    } else if (block === 0x2c) {
      if (++frames > MAX_GIF_FRAMES) return frames;
      if (o + 10 > b.length) return null;
      const local = b[o + 9]!;
      o += 10;
      if (local & 0x80) o += 3 * (1 << ((local & 7) + 1));
      o = skipSubBlocks(o + 1); // after the LZW minimum code size
    } else {
      return null;
    }
    if (o < 0) return null;
  }
  return null;
}

function webpComplete(b: Uint8Array): boolean {
  if (b.length < 12) return false;
  const riffSize = (b[4]! | (b[5]! << 8) | (b[6]! << 16) | (b[7]! << 24)) >>> 0;
  return riffSize >= 4 && 8 + riffSize <= b.length;
}
