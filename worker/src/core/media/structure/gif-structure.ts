import { MAX_GIF_BLOCKS, MAX_GIF_FRAMES } from '../../domain/image-limits.js';
import { OK, refuse, type StructureVerdict, TRUNCATED, u16le } from './verdict.js';

/**
 * Every block of a GIF to its trailer, without decoding: at most
 * MAX_GIF_FRAMES frames and MAX_GIF_BLOCKS blocks, and every frame inside the
 * logical screen (the size every check reads). A decoder asked for a frame
 * larger than the screen allocates for the frame: a 1×1 screen could hide a
 * 65535×65535 one.
 */
export function inspectGif(b: Uint8Array): StructureVerdict {
  if (b.length < 13) return TRUNCATED;
  const screenWidth = u16le(b, 6);
  const screenHeight = u16le(b, 8);
  const flags = b[10]!;
  let o = 13;
  if (flags & 0x80) o += 3 * (1 << ((flags & 7) + 1));
  let frames = 0;
  let blocks = 0;
  while (o < b.length) {
    const block = b[o]!;
    if (block === 0x3b) return frames > 0 ? OK : refuse('malformed', 'The GIF has no image');
    if (++blocks > MAX_GIF_BLOCKS) return refuse('flood', `The GIF has more than ${MAX_GIF_BLOCKS} blocks`);
    if (block === 0x21) {
      o = skipSubBlocks(b, o + 2);
    } else if (block === 0x2c) {
      if (++frames > MAX_GIF_FRAMES) return refuse('flood', `The GIF has more than ${MAX_GIF_FRAMES} frames`);
      if (o + 11 > b.length) return TRUNCATED;
      const [left, top, width, height] = [u16le(b, o + 1), u16le(b, o + 3), u16le(b, o + 5), u16le(b, o + 7)];
      if (left + width > screenWidth || top + height > screenHeight) {
        return refuse('mismatch', 'A GIF frame lies outside its logical screen');
      }
      const local = b[o + 9]!;
      o += 10;
      if (local & 0x80) o += 3 * (1 << ((local & 7) + 1));
      o = skipSubBlocks(b, o + 1); // after the LZW minimum code size
    } else {
      return refuse('malformed', 'The GIF has an unknown block');
    }
    if (o < 0) return TRUNCATED;
  }
  return TRUNCATED;
}

/** After a chain of sub-blocks (size byte, data; a zero size ends it), or −1 when the file ends first. */
function skipSubBlocks(b: Uint8Array, p: number): number {
  while (p < b.length) {
    const size = b[p]!;
    p += 1;
    if (size === 0) return p;
    p += size;
  }
  return -1;
}
