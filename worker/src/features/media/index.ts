// What other features may use of media; its schemas (media.schema.ts) are the other door, shared with the admin.
export { originalKey } from './blob-keys.js';
export { IMAGE_URL_PREFIX, imageUrl, srcsetOf, toImageDto, toPicture } from './image-dto.js';
export type { Image } from './images.port.js';
export { toImage } from './images.repository.js';
