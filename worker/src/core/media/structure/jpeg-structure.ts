import { MAX_JPEG_SCANS, MAX_JPEG_SEGMENTS } from '../../domain/image-limits.js';
import { OK, refuse, type StructureVerdict, TRUNCATED, u16be } from './verdict.js';

// SOF markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
const isStartOfFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;
const isRestart = (m: number) => m >= 0xd0 && m <= 0xd7;
const isProgressive = (m: number) => m === 0xc2 || m === 0xc6 || m === 0xca || m === 0xce;

/**
 * Every segment of a JPEG, through every scan's entropy-coded data, to the
 * end-of-image marker (bytes after it, such as a polyglot's tail, are never
 * read by a decoder). Segments must follow each other without gaps, as the
 * header reader assumes: a decoder that skips garbage to find markers could
 * otherwise see a frame header the checks never saw. Exactly one frame
 * header, so the size checked is the size decoded; at most MAX_JPEG_SCANS
 * scans (progressive) or one per component (sequential), and
 * MAX_JPEG_SEGMENTS segments, so a decoder's work per scan cannot be
 * multiplied by a flood of empty ones.
 */
export function inspectJpeg(b: Uint8Array): StructureVerdict {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return refuse('malformed', 'Not a JPEG');
  let o = 2;
  let segments = 0;
  let frames = 0;
  let scans = 0;
  let maxScans = 0;
  for (;;) {
    if (o >= b.length) return TRUNCATED;
    if (b[o] !== 0xff) return refuse('malformed', 'The JPEG has bytes between its segments');
    while (o + 1 < b.length && b[o + 1] === 0xff) o++; // fill bytes before a marker
    if (o + 1 >= b.length) return TRUNCATED;
    const marker = b[o + 1]!;
    o += 2;
    if (marker === 0xd9) return scans > 0 ? OK : refuse('malformed', 'The JPEG has no image data');
    if (marker === 0x00 || marker === 0xd8) return refuse('malformed', 'The JPEG has a misplaced marker');
    if (++segments > MAX_JPEG_SEGMENTS) {
      return refuse('flood', `The JPEG has more than ${MAX_JPEG_SEGMENTS} segments`);
    }
    if (isRestart(marker) || marker === 0x01) continue; // markers without a length
    if (o + 2 > b.length) return TRUNCATED;
    const end = o + u16be(b, o);
    if (end < o + 2) return refuse('malformed', 'The JPEG has a segment of impossible length');
    if (end > b.length) return TRUNCATED;
    if (isStartOfFrame(marker)) {
      if (++frames > 1) return refuse('mismatch', 'The JPEG has more than one frame header');
      if (end - o < 8) return refuse('malformed', 'The JPEG has a cut frame header');
      maxScans = isProgressive(marker) ? MAX_JPEG_SCANS : b[o + 7]!;
    } else if (marker === 0xdc) {
      // DNL sets the height after the first scan: a size no header check saw.
      return refuse('mismatch', 'The JPEG redefines its height (DNL)');
    } else if (marker === 0xda) {
      if (frames === 0) return refuse('malformed', 'The JPEG has a scan before its frame header');
      if (++scans > maxScans) {
        return refuse(
          'flood',
          `The JPEG has more scans than its frame allows (${maxScans}: ${MAX_JPEG_SCANS} when progressive, one per component otherwise)`,
        );
      }
      o = endOfEntropyData(b, end);
      if (o < 0) return TRUNCATED;
      continue;
    }
    o = end;
  }
}

/**
 * Where the marker that ends a scan's entropy-coded data starts, or −1 when
 * the file ends first. Inside the data every 0xFF is stuffed as FF 00, and
 * restart markers (FF D0–D7) belong to the scan.
 */
function endOfEntropyData(b: Uint8Array, from: number): number {
  let i = from;
  for (;;) {
    i = b.indexOf(0xff, i);
    if (i < 0 || i + 1 >= b.length) return -1;
    const next = b[i + 1]!;
    if (next === 0x00 || isRestart(next)) i += 2;
    else if (next === 0xff) i += 1;
    else return i;
  }
}
