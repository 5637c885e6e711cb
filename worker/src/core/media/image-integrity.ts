import type { ImageHeader } from './image-header.js';
import { inspectGif } from './structure/gif-structure.js';
import { inspectJpeg } from './structure/jpeg-structure.js';
import { inspectPng, pngForDecoding } from './structure/png-structure.js';
import type { StructureVerdict } from './structure/verdict.js';
import { inspectWebp } from './structure/webp-structure.js';

export type { StructureProblem, StructureVerdict } from './structure/verdict.js';

/**
 * An image's whole structure, walked without decoding (structure/*.ts):
 * every segment, chunk or block fits in the file and the end marker is
 * there; the counts that multiply a decoder's work (JPEG scans and
 * segments, PNG chunks, GIF and WebP frames) are capped
 * (core/domain/image-limits.ts); and the size the decoder will use is the
 * size of the header every check read (one JPEG frame header, the WebP
 * bitstream against its canvas, GIF frames inside the screen).
 *
 * Why: photon panics (a wasm trap) on a truncated or broken file, and a
 * trapped wasm instance leaks what it held; a file that lies about its size
 * or repeats a costly part thousands of times costs gigabytes or seconds.
 * So such files are refused here, before any decoder sees them. Each walk
 * is linear in the file's length and never throws.
 */
export function inspectStructure(bytes: Uint8Array, type: ImageHeader['contentType']): StructureVerdict {
  switch (type) {
    case 'image/jpeg':
      return inspectJpeg(bytes);
    case 'image/png':
      return inspectPng(bytes);
    case 'image/gif':
      return inspectGif(bytes);
    case 'image/webp':
      return inspectWebp(bytes);
  }
}

/** Crafted rather than damaged: refused at upload (a damaged file is kept and served as itself). */
export const isHostile = (verdict: StructureVerdict): verdict is Extract<StructureVerdict, { ok: false }> =>
  !verdict.ok && (verdict.problem === 'flood' || verdict.problem === 'mismatch');

/**
 * What the decoder gets: the bytes themselves, but a PNG without its
 * ancillary chunks (pngForDecoding). Only for bytes inspectStructure passed.
 */
export function forDecoding(bytes: Uint8Array, type: ImageHeader['contentType']): Uint8Array {
  return type === 'image/png' ? pngForDecoding(bytes) : bytes;
}
