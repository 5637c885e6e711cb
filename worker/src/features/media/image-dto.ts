import type { Image } from './images.port.js';
import type { ImageDto } from './media.schema.js';

/** Where uploaded images are served. */
export const IMAGE_URL_PREFIX = '/static/uploadedImages/';

/** Domain → wire. Only public fields leave. */
export function toImageDto(i: Image): ImageDto {
  return {
    id: i.id,
    articleId: i.articleId,
    filename: i.filename,
    url: IMAGE_URL_PREFIX + i.filename,
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
