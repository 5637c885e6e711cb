import type { ImageHeader } from './image-header.js';

/**
 * What decoding an image costs, from its header alone: the bytes of pixels
 * the decoder holds at its own depth. photon (through the `image` crate)
 * decodes a PNG at its stored depth, 16-bit samples as two bytes, then
 * copies it to 8-bit RGBA; everything else it decodes to 8-bit RGBA. An
 * interlaced (Adam7) PNG is decoded in seven passes scattered over the
 * whole image, about twice the work of the same pixels in rows, so it
 * counts twice. A GIF or an animated WebP is decoded one frame only.
 *
 * Why by hand: it reads four bytes of a PNG header that readImageHeader
 * already found whole (IHDR is the first chunk, its layout fixed by the PNG
 * specification); no library reads a header without decoding.
 */
export function decodeCost(bytes: Uint8Array, header: Pick<ImageHeader, 'contentType' | 'width' | 'height'>): number {
  const pixels = header.width * header.height;
  if (header.contentType !== 'image/png' || bytes.length < 29) return pixels * RGBA8;
  const bitDepth = bytes[24]!;
  const colourType = bytes[25]!;
  const interlaced = bytes[28] === 1;
  // Palette indices expand to RGBA; depths under 8 expand to 8.
  const samples = colourType === 3 ? 4 : (SAMPLES[colourType] ?? 4);
  const perPixel = Math.max(RGBA8, samples * (bitDepth > 8 ? 2 : 1));
  return pixels * perPixel * (interlaced ? 2 : 1);
}

const RGBA8 = 4;

/** Samples per pixel of each PNG colour type (3, the palette, is handled apart). */
const SAMPLES: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };
