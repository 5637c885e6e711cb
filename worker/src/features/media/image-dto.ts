import { MAX_VARIANT_SOURCE_PIXELS } from '../../core/domain/image-limits.js';
import type { LinkBase } from '../../wire/links.js';
import type { Image } from './images.port.js';
import type { ImageDto, PictureDto } from './media.schema.js';

/** Where uploaded images are served. */
export const IMAGE_URL_PREFIX = '/static/uploadedImages/';

export type { LinkBase };

/** An image's own URL on this server. */
export const imageUrl = (i: Pick<Image, 'filename'>, base: LinkBase): string =>
  `${base.origin}${IMAGE_URL_PREFIX}${i.filename}`;

/**
 * One `url?w=N Nw` candidate per variant width, none wider than the
 * original; none at all for an original over the variant cap, whose every
 * variant is refused.
 */
export function srcsetOf(url: string, image: Pick<Image, 'width' | 'height'>, base: LinkBase): string {
  if (image.width * image.height > MAX_VARIANT_SOURCE_PIXELS) return '';
  const { width } = image;
  return base.widths
    .filter((w) => w <= width)
    .map((w) => `${url}?w=${w} ${w}w`)
    .join(', ');
}

/** Domain → wire. Only public fields leave. */
export function toImageDto(i: Image, base: LinkBase): ImageDto {
  const url = imageUrl(i, base);
  return {
    id: i.id,
    articleId: i.articleId,
    filename: i.filename,
    url,
    srcset: srcsetOf(url, i, base),
    contentType: i.contentType,
    bytes: i.bytes,
    width: i.width,
    height: i.height,
    sha256: i.sha256,
    createdAt: i.createdAt.toISOString(),
    originalName: i.originalName,
    alt: i.alt,
    caption: i.caption,
  };
}

/** The image as a page shows it. */
export function toPicture(i: Image, base: LinkBase): PictureDto {
  const url = imageUrl(i, base);
  return { url, alt: i.alt, width: i.width, height: i.height, srcset: srcsetOf(url, i, base) };
}
