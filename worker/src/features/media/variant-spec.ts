import { DomainError } from '../../core/domain/errors.js';
import type { Orientation } from '../../ports/image-codec.js';
import type { Image } from './images.port.js';

export type RequestedFormat = 'webp' | 'jpeg' | 'png';

/** What a client asked for; absent parts follow the original. */
export interface VariantRequest {
  width?: number;
  format?: RequestedFormat;
}

/** Where it is stored and what it is: from the row and the request alone, so 304s need no storage. */
export interface VariantTarget {
  /** `{w}.{ext}` or `full.{ext}`: the last segment of the blob key. */
  name: string;
  ext: 'jpg' | 'png' | 'webp';
  contentType: 'image/jpeg' | 'image/png' | 'image/webp';
}

const bad = (path: string, message: string) => new DomainError('invalid_request', message, [{ path, message }]);

/**
 * `?w=` and `?format=` only, each at most once; null when neither is there
 * (the original is served). Everything else is a 400, so the set of URLs
 * (and of stored variants) is exactly presets × formats per image.
 */
export function parseVariantQuery(query: Record<string, string[]>, presets: readonly number[]): VariantRequest | null {
  const keys = Object.keys(query);
  if (keys.length === 0) return null;
  for (const key of keys) {
    if (key !== 'w' && key !== 'format') throw bad(key, `Unknown parameter ${key}: only w and format are allowed`);
    if (query[key]!.length !== 1) throw bad(key, `${key} may be given once`);
  }
  // No widths: IMAGE_VARIANTS=off, this server makes no variant at all.
  if (presets.length === 0)
    throw bad(keys[0]!, 'This server makes no image variants (IMAGE_VARIANTS=off): ask for the original');
  const out: VariantRequest = {};
  const w = query.w?.[0];
  if (w !== undefined) {
    const width = /^[1-9][0-9]{0,4}$/.test(w) ? Number(w) : NaN;
    if (!presets.includes(width)) throw bad('w', `w must be one of ${presets.join(', ')}`);
    out.width = width;
  }
  const format = query.format?.[0];
  if (format !== undefined) {
    if (format !== 'webp' && format !== 'jpeg' && format !== 'png')
      throw bad('format', 'format must be webp, jpeg or png');
    out.format = format;
  }
  return out;
}

const TARGETS = {
  jpeg: { ext: 'jpg', contentType: 'image/jpeg' },
  png: { ext: 'png', contentType: 'image/png' },
  webp: { ext: 'webp', contentType: 'image/webp' },
} as const;

/**
 * Without `format`: PNG for PNG and GIF (they may be transparent), WebP for
 * WebP, JPEG for JPEG. `format=webp` (or a WebP original) is served as JPEG
 * by a codec without a lossy WebP writer; the Content-Type says what the
 * bytes are.
 */
export function variantTarget(image: Image, request: VariantRequest, lossyWebp: boolean): VariantTarget {
  const natural =
    image.contentType === 'image/png' || image.contentType === 'image/gif'
      ? 'png'
      : image.contentType === 'image/webp'
        ? 'webp'
        : 'jpeg';
  let format = request.format ?? natural;
  if (format === 'webp' && !lossyWebp) format = 'jpeg';
  const { ext, contentType } = TARGETS[format];
  return { name: `${request.width ?? 'full'}.${ext}`, ext, contentType };
}

/**
 * Output size, upright. A width above the original's gives the original's
 * width: variants are never upscaled.
 */
export function variantSize(image: Image, orientation: Orientation, request: VariantRequest) {
  const turned = orientation >= 5;
  const fullWidth = turned ? image.height : image.width;
  const fullHeight = turned ? image.width : image.height;
  const width = Math.min(request.width ?? fullWidth, fullWidth);
  const height = Math.max(1, Math.round((fullHeight * width) / fullWidth));
  return { width, height, turned };
}
