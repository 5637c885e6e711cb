import { MAX_PNG_CHUNKS } from '../../domain/image-limits.js';
import { fourcc, OK, refuse, type StructureVerdict, TRUNCATED, u32be } from './verdict.js';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const CHUNK_TYPE = /^[A-Za-z]{4}$/;
/** Bit depths allowed for each colour type (PNG §11.2.2). */
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

/**
 * Every chunk of a PNG to IEND (bytes after it are never decoded): IHDR
 * first and well-formed (its size is the only one the checks and the
 * decoder read), image data in one run of IDAT chunks, no unknown critical
 * chunk, at most MAX_PNG_CHUNKS chunks. CRCs are the decoder's business.
 */
export function inspectPng(b: Uint8Array): StructureVerdict {
  if (b.length < 8 || !SIGNATURE.every((v, i) => b[i] === v)) return refuse('malformed', 'Not a PNG');
  let o = 8;
  let chunks = 0;
  let data: 'before' | 'in' | 'after' = 'before';
  for (;;) {
    if (o + 12 > b.length) return TRUNCATED;
    const length = u32be(b, o);
    const type = fourcc(b, o + 4);
    if (length > 0x7fffffff || !CHUNK_TYPE.test(type)) return refuse('malformed', 'The PNG has a malformed chunk');
    if (o + 12 + length > b.length) return TRUNCATED;
    if (++chunks > MAX_PNG_CHUNKS) return refuse('flood', `The PNG has more than ${MAX_PNG_CHUNKS} chunks`);
    if (chunks === 1 && (type !== 'IHDR' || !validHeader(b, o + 8, length))) {
      return refuse('malformed', 'The PNG does not start with a valid IHDR chunk');
    }
    if (type === 'IDAT') {
      if (data === 'after') return refuse('malformed', 'The PNG has image data in more than one run');
      data = 'in';
    } else {
      if (data === 'in') data = 'after';
      if (type === 'IEND') return data === 'before' ? refuse('malformed', 'The PNG has no image data') : OK;
      const critical = (b[o + 4]! & 0x20) === 0;
      if (critical && chunks > 1 && type !== 'PLTE') return refuse('malformed', `The PNG has an unknown chunk ${type}`);
      if (type === 'PLTE' && (length % 3 !== 0 || length > 768 || data !== 'before')) {
        return refuse('malformed', 'The PNG has a malformed palette');
      }
    }
    o += 12 + length;
  }
}

function validHeader(b: Uint8Array, at: number, length: number): boolean {
  if (length !== 13) return false;
  const [width, height] = [u32be(b, at), u32be(b, at + 4)];
  const [depth, colour, compression, filter, interlace] = [
    b[at + 8]!,
    b[at + 9]!,
    b[at + 10]!,
    b[at + 11]!,
    b[at + 12]!,
  ];
  const big = 0x7fffffff;
  return (
    width > 0 &&
    height > 0 &&
    width <= big &&
    height <= big &&
    (DEPTHS[colour]?.includes(depth) ?? false) &&
    compression === 0 &&
    filter === 0 &&
    interlace <= 1
  );
}

/**
 * The chunks a decoder needs for the pixels (IHDR, PLTE, tRNS, IDAT, IEND),
 * copied whole; every other ancillary chunk dropped. A compressed one (iCCP,
 * zTXt, iTXt) can inflate to gigabytes, and photon inflates iCCP; none of
 * them changes the pixels photon returns. Only for a PNG `inspectPng`
 * accepted (the walk trusts its lengths).
 */
export function pngForDecoding(b: Uint8Array): Uint8Array {
  const keep: [number, number][] = [[0, 8]];
  let size = 8;
  let o = 8;
  for (;;) {
    const end = o + 12 + u32be(b, o);
    const type = fourcc(b, o + 4);
    const transparency = type === 'tRNS' && end - o - 12 <= 256;
    if ((b[o + 4]! & 0x20) === 0 || transparency) {
      keep.push([o, end]);
      size += end - o;
    }
    if (type === 'IEND' || end >= b.length) break;
    o = end;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const [from, to] of keep) {
    out.set(b.subarray(from, to), at);
    at += to - from;
  }
  return out;
}
