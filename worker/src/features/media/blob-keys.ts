/** Where things live in the blob store. Keys are made here, never from client input. */
export const originalKey = (filename: string) => `originals/${filename}`;

/** `{uuid}.{ext}`: the only shape of filename the server ever makes or serves. */
export const IMAGE_FILENAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|webp|gif)$/;

export const VARIANTS_PREFIX = 'variants/';

/** Every variant of one image, whatever its content. */
export const imageVariantsPrefix = (imageId: string) => `${VARIANTS_PREFIX}${imageId}/`;

/**
 * Variants of one image's current bytes: the key carries a prefix of the
 * original's SHA-256, so a variant made from other bytes can never be found
 * for this image, even if an id or filename were ever reused.
 */
export const contentVariantsPrefix = (imageId: string, sha256: string) =>
  `${imageVariantsPrefix(imageId)}${sha256.slice(0, 16)}/`;

/** `name` is `{w}.{ext}`, or `full.{ext}` without `w` (see variant-spec.ts). */
export const variantKey = (imageId: string, sha256: string, name: string) =>
  `${contentVariantsPrefix(imageId, sha256)}${name}`;

/** The last segment of a variant key: the requested width (or `full`) and the stored type. */
export const VARIANT_NAME = /^([1-9][0-9]{0,4}|full)\.(jpg|png|webp)$/;
