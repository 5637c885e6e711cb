import { MAX_WEBP_CHUNKS, MAX_WEBP_FRAMES } from '../../domain/image-limits.js';
import { fourcc, OK, refuse, type StructureVerdict, TRUNCATED, u16le, u24le, u32le } from './verdict.js';

interface Size {
  width: number;
  height: number;
}

type Chunk = { type: string; start: number; end: number };

/**
 * The chunks of a RIFF container between `from` and `to`, or a verdict when
 * they do not fit. `budget` counts chunks across nested walks.
 */
function chunksOf(b: Uint8Array, from: number, to: number, budget: { left: number }): Chunk[] | StructureVerdict {
  const out: Chunk[] = [];
  let o = from;
  while (o < to) {
    if (o + 8 > to) return o + 8 > b.length ? TRUNCATED : refuse('malformed', 'The WebP has a malformed chunk');
    if (--budget.left < 0) return refuse('flood', `The WebP has more than ${MAX_WEBP_CHUNKS} chunks`);
    const size = u32le(b, o + 4);
    const start = o + 8;
    const end = start + size;
    if (end > to)
      return end > b.length ? TRUNCATED : refuse('malformed', 'The WebP has a chunk longer than its container');
    out.push({ type: fourcc(b, o), start, end });
    o = end + (size & 1);
  }
  return out;
}

/** The size a VP8 (lossy) or VP8L (lossless) bitstream decodes to, read as libwebp reads it. */
function bitstreamSize(b: Uint8Array, chunk: Chunk): Size | StructureVerdict {
  const { start, end } = chunk;
  if (chunk.type === 'VP8 ') {
    if (end - start < 10) return refuse('malformed', 'The WebP has a cut VP8 header');
    const tag = b[start]! | (b[start + 1]! << 8) | (b[start + 2]! << 16);
    const keyFrame = (tag & 1) === 0;
    const partition = tag >> 5;
    if (!keyFrame || ((tag >> 1) & 7) > 3 || partition > end - start - 10) {
      return refuse('malformed', 'The WebP has a malformed VP8 frame');
    }
    if (b[start + 3] !== 0x9d || b[start + 4] !== 0x01 || b[start + 5] !== 0x2a) {
      return refuse('malformed', 'The WebP has a malformed VP8 frame');
    }
    return { width: u16le(b, start + 6) & 0x3fff, height: u16le(b, start + 8) & 0x3fff };
  }
  if (end - start < 5 || b[start] !== 0x2f) return refuse('malformed', 'The WebP has a malformed VP8L header');
  const bits = u32le(b, start + 1);
  if (bits >>> 29 !== 0) return refuse('malformed', 'The WebP has an unknown VP8L version');
  return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
}

const isVerdict = (x: unknown): x is StructureVerdict => typeof x === 'object' && x !== null && 'ok' in x;
const isBitstream = (type: string) => type === 'VP8 ' || type === 'VP8L';
const sameSize = (a: Size, b: Size) => a.width === b.width && a.height === b.height;

/** Exactly one bitstream among these chunks, of exactly this size. */
function oneBitstreamOf(b: Uint8Array, chunks: Chunk[], expected: Size, what: string): StructureVerdict {
  const streams = chunks.filter((c) => isBitstream(c.type));
  if (streams.length !== 1) return refuse('malformed', `The WebP ${what} has ${streams.length} bitstreams`);
  const size = bitstreamSize(b, streams[0]!);
  if (isVerdict(size)) return size;
  if (!sameSize(size, expected)) {
    return refuse(
      'mismatch',
      `The WebP ${what} says ${expected.width}×${expected.height} but its bitstream is ${size.width}×${size.height}`,
    );
  }
  return OK;
}

/**
 * A WebP's chunks, and the size each bitstream decodes to against the size
 * the header promised (the VP8X canvas, which every check reads): a 1×1
 * canvas over a 16383×16383 bitstream makes the decoder allocate a
 * gigabyte. Animations: at most MAX_WEBP_FRAMES frames, each inside the
 * canvas and of its declared size.
 */
export function inspectWebp(b: Uint8Array): StructureVerdict {
  if (b.length < 12 || fourcc(b, 0) !== 'RIFF' || fourcc(b, 8) !== 'WEBP') return refuse('malformed', 'Not a WebP');
  const end = 8 + u32le(b, 4);
  if (end > b.length) return TRUNCATED;
  const budget = { left: MAX_WEBP_CHUNKS };
  const chunks = chunksOf(b, 12, end, budget);
  if (isVerdict(chunks)) return chunks;
  const first = chunks[0];
  if (!first) return refuse('malformed', 'The WebP is empty');
  if (isBitstream(first.type)) {
    const size = bitstreamSize(b, first);
    if (isVerdict(size)) return size;
    return oneBitstreamOf(b, chunks, size, 'image');
  }
  if (first.type !== 'VP8X' || first.end - first.start < 10) return refuse('malformed', 'The WebP has no image header');
  const canvas = { width: 1 + u24le(b, first.start + 4), height: 1 + u24le(b, first.start + 7) };
  const animated = (b[first.start]! & 0x02) !== 0;
  const rest = chunks.slice(1);
  if (!animated) return oneBitstreamOf(b, rest, canvas, 'canvas');
  if (rest.some((c) => isBitstream(c.type)))
    return refuse('malformed', 'The WebP animation has a bitstream outside its frames');
  const frames = rest.filter((c) => c.type === 'ANMF');
  if (frames.length === 0) return refuse('malformed', 'The WebP animation has no frames');
  if (frames.length > MAX_WEBP_FRAMES) return refuse('flood', `The WebP has more than ${MAX_WEBP_FRAMES} frames`);
  for (const frame of frames) {
    const verdict = inspectFrame(b, frame, canvas, budget);
    if (!verdict.ok) return verdict;
  }
  return OK;
}

function inspectFrame(b: Uint8Array, frame: Chunk, canvas: Size, budget: { left: number }): StructureVerdict {
  const at = frame.start;
  if (frame.end - at < 16) return refuse('malformed', 'The WebP has a cut frame header');
  const x = 2 * u24le(b, at);
  const y = 2 * u24le(b, at + 3);
  const size = { width: 1 + u24le(b, at + 6), height: 1 + u24le(b, at + 9) };
  if (x + size.width > canvas.width || y + size.height > canvas.height) {
    return refuse('mismatch', 'A WebP frame lies outside its canvas');
  }
  const inner = chunksOf(b, at + 16, frame.end, budget);
  if (isVerdict(inner)) return inner;
  return oneBitstreamOf(b, inner, size, 'frame');
}
