import { type ImageHeader, readImageHeader } from './image-header.js';
import { inspectStructure, isHostile } from './image-integrity.js';

/** What an installation takes as an image: its own limits (MAX_UPLOAD_BYTES, MAX_IMAGE_PIXELS). */
export interface ImageLimits {
  maxBytes: number;
  maxPixels: number;
}

export type ImageAcceptance = { ok: true; header: ImageHeader } | { ok: false; tooLarge: boolean; message: string };

/**
 * The one gate every stored original passes, whichever way it came (an
 * upload, an imported archive): the type and size from the bytes, never
 * from a name or a declared type, a pixel flood refused from its header,
 * and a crafted structure refused before any decoder sees it. A damaged
 * but not hostile file passes (it is served as itself, without variants).
 */
export function acceptImage(bytes: Uint8Array, limits: ImageLimits): ImageAcceptance {
  if (bytes.byteLength > limits.maxBytes)
    return { ok: false, tooLarge: true, message: `The file is larger than ${limits.maxBytes} bytes` };
  const header = readImageHeader(bytes);
  if (!header) return { ok: false, tooLarge: false, message: 'The file is not a JPEG, PNG, WebP or GIF image' };
  if (header.width * header.height > limits.maxPixels)
    return { ok: false, tooLarge: false, message: `The image has more than ${limits.maxPixels} pixels` };
  // Crafted files (floods of scans, chunks or frames; sizes that disagree with the
  // header) are refused; a damaged one is kept and served as itself, without variants.
  const verdict = inspectStructure(bytes, header.contentType);
  if (isHostile(verdict)) return { ok: false, tooLarge: false, message: verdict.message };
  return { ok: true, header };
}
