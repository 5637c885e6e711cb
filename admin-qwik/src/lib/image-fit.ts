import { readImageHeader } from '../../../worker/src/core/media/image-header';
import { formatBytes } from './format';

/**
 * Whether an image is worth shrinking in the browser before upload, decided
 * from its header bytes with the server's own reader (no decoding): only
 * JPEG, PNG and WebP (photon writes those; a GIF may be animated) wider or
 * taller than the limit.
 */
export const SHRINK_MAX_SIDE = 2560;

export interface Size {
  width: number;
  height: number;
}

export type ShrinkType = 'image/jpeg' | 'image/png' | 'image/webp';

export interface ShrinkPlan {
  contentType: ShrinkType;
  from: Size;
  to: Size;
}

/** The size that fits within `max` on both sides, aspect kept (rounded, at least 1 px); the same size if it already fits. */
export function fitWithin(size: Size, max = SHRINK_MAX_SIDE): Size {
  const longest = Math.max(size.width, size.height);
  if (longest <= max) return { width: size.width, height: size.height };
  const scale = max / longest;
  return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
}

/** What shrinking would do to these bytes, or null when it would not apply (small, GIF, not an image, header cut short). */
export function shrinkPlan(bytes: Uint8Array, max = SHRINK_MAX_SIDE): ShrinkPlan | null {
  const header = readImageHeader(bytes);
  if (!header || header.contentType === 'image/gif') return null;
  const from = { width: header.width, height: header.height };
  if (Math.max(from.width, from.height) <= max) return null;
  return { contentType: header.contentType, from, to: fitWithin(from, max) };
}

/** `3000×2000, 2.1 MiB`: what a line in the upload list says about one file. */
export function describeSize(size: Size, bytes: number): string {
  return `${size.width}×${size.height}, ${formatBytes(bytes)}`;
}
