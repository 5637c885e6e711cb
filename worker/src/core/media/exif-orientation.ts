import type { Orientation } from '../../ports/image-codec.js';

/**
 * The EXIF orientation of a JPEG, read from its APP1 segment without any
 * decoder: 1 (as stored) whenever the tag is absent, malformed or out of
 * range. Every read is bounds-checked; hostile bytes yield 1, never a throw.
 */
export function readJpegOrientation(b: Uint8Array): Orientation {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return 1;
  let o = 2;
  while (o + 4 <= b.length) {
    if (b[o] !== 0xff) return 1;
    const marker = b[o + 1]!;
    if (marker === 0xff) {
      o += 1;
      continue;
    }
    // The image data starts (or the file ends) before any EXIF: none.
    if (marker === 0xda || marker === 0xd9) return 1;
    const length = (b[o + 2]! << 8) | b[o + 3]!;
    if (length < 2) return 1;
    const start = o + 4;
    const end = Math.min(o + 2 + length, b.length);
    if (marker === 0xe1 && end - start >= 6 && String.fromCharCode(...b.subarray(start, start + 6)) === 'Exif\0\0') {
      return tiffOrientation(b.subarray(start + 6, end));
    }
    o += 2 + length;
  }
  return 1;
}

/** IFD0 of a TIFF header: tag 0x0112 (SHORT) holds the orientation. */
function tiffOrientation(t: Uint8Array): Orientation {
  if (t.length < 8) return 1;
  const little = t[0] === 0x49 && t[1] === 0x49; // "II"
  const big = t[0] === 0x4d && t[1] === 0x4d; // "MM"
  if (!little && !big) return 1;
  const u16 = (o: number) => (little ? t[o]! | (t[o + 1]! << 8) : (t[o]! << 8) | t[o + 1]!);
  const u32 = (o: number) =>
    (little
      ? t[o]! | (t[o + 1]! << 8) | (t[o + 2]! << 16) | (t[o + 3]! << 24)
      : (t[o]! << 24) | (t[o + 1]! << 16) | (t[o + 2]! << 8) | t[o + 3]!) >>> 0;
  if (u16(2) !== 42) return 1;
  const ifd = u32(4);
  if (ifd < 8 || ifd + 2 > t.length) return 1;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > t.length) return 1;
    if (u16(entry) !== 0x0112) continue;
    if (u16(entry + 2) !== 3 || u32(entry + 4) !== 1) return 1; // SHORT, one value
    const value = u16(entry + 8);
    return value >= 1 && value <= 8 ? (value as Orientation) : 1;
  }
  return 1;
}
