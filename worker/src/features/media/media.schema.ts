import * as z from 'zod';
import { IdSchema, TimestampSchema } from '../../wire/common.schema.js';
import { MAX_FILE_NAME_LENGTH, sanitizeFileName } from '../../wire/file-name.js';
import { PageQuerySchema } from '../../wire/pagination.schema.js';
import { CONTROL_CHARS, LONE_SURROGATE } from '../../wire/text.js';
import { IMAGE_CONTENT_TYPES, type ImageContentType } from '../../wire/vocabulary.js';

export { IMAGE_CONTENT_TYPES, type ImageContentType };

/** The extension the server gives each type's files (`{id}.{ext}`), and so the type a file name stands for. */
export const IMAGE_EXTENSIONS = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
} as const satisfies Record<ImageContentType, string>;

/**
 * `GET /v1/media`: `?articleId=`, `?q=` (text the filename, original name,
 * alt or caption contains, taken literally) and `?sha256=` (the images with
 * exactly these bytes: an editor looks the library up before uploading).
 */
export const MediaListQuerySchema = PageQuerySchema.extend({
  articleId: IdSchema.optional(),
  q: z.string().min(1, 'q must not be empty').max(48, 'q must be at most 48 characters').optional(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lower-case hex digits')
    .optional(),
});

export type MediaListQuery = z.output<typeof MediaListQuerySchema>;

export const ImageSchema = z
  .object({
    id: z.uuid(),
    articleId: z.uuid(),
    filename: z.string(),
    /** Absolute: PUBLIC_URL (or the request's origin) + /static/uploadedImages/{filename}. */
    url: z.string(),
    /** `url?w=N Nw` for each IMAGE_VARIANT_WIDTHS width up to the image's own; "" when it is narrower than all. */
    srcset: z.string(),
    contentType: z.enum(IMAGE_CONTENT_TYPES),
    bytes: z.int(),
    width: z.int(),
    height: z.int(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    createdAt: TimestampSchema,
    /** The uploaded file's name, sanitised; the download name. Null when not known (older uploads). */
    originalName: z.string().nullable(),
    alt: z.string(),
    caption: z.string(),
  })
  .meta({ id: 'Image' });

export const MAX_ALT_LENGTH = 1000;
export const MAX_CAPTION_LENGTH = 2000;

const noLoneSurrogate = (field: string) =>
  [(t: string) => !LONE_SURROGATE.test(t), `${field} must be valid Unicode (no lone surrogates)`] as const;

/** Alt text: one line, trimmed, may be empty (a decorative image). */
export const AltSchema = z
  .string({ error: 'alt must be a string' })
  .trim()
  .max(MAX_ALT_LENGTH, `alt must be at most ${MAX_ALT_LENGTH} characters`)
  .refine((t) => !CONTROL_CHARS.test(t), 'alt must not contain control characters (one line)')
  .refine(...noLoneSurrogate('alt'));

/**
 * A caption: trimmed, may be empty, may hold line breaks (stored as \n: a
 * form sends \r\n) and tabs but no other control characters.
 */
export const CaptionSchema = z
  .string({ error: 'caption must be a string' })
  .trim()
  .max(MAX_CAPTION_LENGTH, `caption must be at most ${MAX_CAPTION_LENGTH} characters`)
  .transform((t) => t.replace(/\r\n?/g, '\n'))
  .refine((t) => !CONTROL_CHARS.test(t.replace(/[\n\t]/g, '')), 'caption must not contain control characters')
  .refine(...noLoneSurrogate('caption'));

/** A new download name: sanitised as an upload's name is (sanitizeFileName); null forgets it. */
export const OriginalNameSchema = z
  .string({ error: 'originalName must be a string' })
  .max(4 * MAX_FILE_NAME_LENGTH, 'originalName is too long')
  .transform((name, ctx) => {
    const safe = sanitizeFileName(name);
    if (safe === null) ctx.addIssue({ code: 'custom', message: 'originalName must name a file' });
    return safe ?? z.NEVER;
  })
  .nullable();

/** `PATCH /v1/media/{id}`: an image's words; fields left out stay. */
export const UpdateImageSchema = z.object({
  originalName: OriginalNameSchema.optional(),
  alt: AltSchema.optional(),
  caption: CaptionSchema.optional(),
});
export type UpdateImageInput = z.output<typeof UpdateImageSchema>;
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

/** An image as a page shows it (an article's feature image): `srcset` has a candidate per variant width up to the original's. */
export const PictureSchema = z
  .object({
    url: z.string(),
    alt: z.string(),
    width: z.int(),
    height: z.int(),
    srcset: z.string(),
  })
  .meta({ id: 'Picture' });
export type PictureDto = z.output<typeof PictureSchema>;
