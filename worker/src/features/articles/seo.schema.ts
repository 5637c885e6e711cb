import * as z from 'zod';
import { isHttpUrl } from '../../wire/common.schema.js';
import { CONTROL_CHARS, LONE_SURROGATE } from '../../wire/text.js';

const line = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a string` })
    .trim()
    .max(max, `${name} must be at most ${max} characters`)
    .refine((t) => !CONTROL_CHARS.test(t), `${name} must not contain control characters`)
    .refine((t) => !LONE_SURROGATE.test(t), `${name} must be valid Unicode (no lone surrogates)`)
    // An empty string means "not set": stored as null so readers see one representation.
    .transform((t) => (t === '' ? null : t));

/** Our own uploads may be named by path; everything else must be an absolute http(s) URL. */
export const UPLOADED_IMAGE_PATH = /^\/static\/uploadedImages\/[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

const url = (name: string, allowUploadPath: boolean) =>
  z
    .string({ error: `${name} must be a string` })
    .trim()
    .max(2048, `${name} must be at most 2048 characters`)
    .refine(
      (v) => v === '' || isHttpUrl(v) || (allowUploadPath && UPLOADED_IMAGE_PATH.test(v)),
      allowUploadPath
        ? `${name} must be an absolute http(s) URL or /static/uploadedImages/<filename>`
        : `${name} must be an absolute http(s) URL`,
    )
    .transform((t) => (t === '' ? null : t));

/**
 * PUT /v1/articles/:id/seo and `seo` on article create: the whole SEO
 * record (a field left out is cleared). Shared by the API and the admin.
 */
export const SeoInputSchema = z.object({
  metaTitle: line('metaTitle', 200).nullable().optional(),
  metaDescription: line('metaDescription', 500).nullable().optional(),
  canonicalUrl: url('canonicalUrl', false).nullable().optional(),
  ogImage: url('ogImage', true).nullable().optional(),
  noindex: z.boolean({ error: 'noindex must be a boolean' }).optional(),
});
export type SeoInput = z.output<typeof SeoInputSchema>;

export const SeoSchema = z
  .object({
    metaTitle: z.string().nullable(),
    metaDescription: z.string().nullable(),
    canonicalUrl: z.string().nullable(),
    ogImage: z.string().nullable(),
    noindex: z.boolean(),
  })
  .meta({ id: 'Seo' });
export type SeoDto = z.output<typeof SeoSchema>;

export const EMPTY_SEO: SeoDto = Object.freeze({
  metaTitle: null,
  metaDescription: null,
  canonicalUrl: null,
  ogImage: null,
  noindex: false,
});

/** Fills what the input left out. */
export function toSeo(input: SeoInput | undefined): SeoDto {
  return {
    metaTitle: input?.metaTitle ?? null,
    metaDescription: input?.metaDescription ?? null,
    canonicalUrl: input?.canonicalUrl ?? null,
    ogImage: input?.ogImage ?? null,
    noindex: input?.noindex ?? false,
  };
}
