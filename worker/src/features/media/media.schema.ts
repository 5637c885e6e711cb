import * as z from 'zod';
import { IdSchema, TimestampSchema } from '../../contract/common.schema.js';
import { PageQuerySchema } from '../../contract/pagination.schema.js';

export const IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export type ImageContentType = (typeof IMAGE_CONTENT_TYPES)[number];

/** `GET /v1/media`: `?articleId=` and `?q=` (text the filename contains, taken literally). */
export const MediaListQuerySchema = PageQuerySchema.extend({
  articleId: IdSchema.optional(),
  q: z.string().min(1, 'q must not be empty').max(48, 'q must be at most 48 characters').optional(),
});

export type MediaListQuery = z.output<typeof MediaListQuerySchema>;

export const ImageSchema = z
  .object({
    id: z.uuid(),
    articleId: z.uuid(),
    filename: z.string(),
    url: z.string(),
    contentType: z.enum(IMAGE_CONTENT_TYPES),
    bytes: z.int(),
    width: z.int(),
    height: z.int(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'Image' });
export type ImageDto = z.output<typeof ImageSchema>;

export const VariantSchema = z
  .object({
    /** The requested preset width, or null for `full` (format only). */
    requestedWidth: z.int().nullable(),
    contentType: z.string(),
    bytes: z.int(),
    url: z.string(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'Variant' });
export type VariantDto = z.output<typeof VariantSchema>;

/** `GET /v1/media/{id}`: the image and the variants made of it so far. */
export const ImageWithVariantsSchema = ImageSchema.extend({ variants: z.array(VariantSchema) });
export type ImageWithVariantsDto = z.output<typeof ImageWithVariantsSchema>;

export const VariantCacheSchema = z
  .object({ count: z.int(), bytes: z.int(), presets: z.array(z.int()) })
  .meta({ id: 'VariantCache' });
export type VariantCacheDto = z.output<typeof VariantCacheSchema>;
