import * as z from 'zod';
import { isHttpUrl, longTextSchema, nameSchema, TimestampSchema } from '../../wire/common.schema.js';

const BaseUrlSchema = z
  .string({ error: 'baseUrl must be a string' })
  .max(2000, 'baseUrl must be at most 2,000 characters')
  .refine(isHttpUrl, 'baseUrl must be an http(s) URL');

/**
 * Where an article lives under the site's baseUrl: a path holding `{slug}`
 * once (`/blog/{slug}`, `/{slug}.html`), of URL-safe path characters so that
 * the URL it makes needs no escaping; null: `/{slug}`.
 */
export const UrlPatternSchema = z
  .string({ error: 'urlPattern must be a string' })
  .max(200, 'urlPattern must be at most 200 characters')
  .regex(
    /^\/[A-Za-z0-9._~/-]*\{slug\}[A-Za-z0-9._~/-]*$/,
    'urlPattern must be a path starting with / that holds {slug} once, e.g. /blog/{slug}',
  )
  .nullable();

/**
 * Where the site shows a preview link: an absolute http(s) URL holding
 * `{token}` once (`https://example.com/preview?token={token}`); null: the
 * API's own preview page.
 */
export const PreviewUrlSchema = z
  .string({ error: 'previewUrl must be a string' })
  .max(2000, 'previewUrl must be at most 2,000 characters')
  .refine(
    (u) => u.split('{token}').length === 2 && isHttpUrl(u.replace('{token}', 'token')),
    'previewUrl must be an http(s) URL that holds {token} once, e.g. https://example.com/preview/{token}',
  )
  .nullable();

export const CreateSiteSchema = z.object({
  name: nameSchema('name'),
  baseUrl: BaseUrlSchema,
  description: longTextSchema('description').optional().default(null),
  urlPattern: UrlPatternSchema.optional().default(null),
  previewUrl: PreviewUrlSchema.optional().default(null),
});
export type CreateSiteInput = z.output<typeof CreateSiteSchema>;

export const UpdateSiteSchema = z.object({
  name: nameSchema('name').optional(),
  baseUrl: BaseUrlSchema.optional(),
  description: longTextSchema('description').optional(),
  urlPattern: UrlPatternSchema.optional(),
  previewUrl: PreviewUrlSchema.optional(),
});
export type UpdateSiteInput = z.output<typeof UpdateSiteSchema>;

export const SiteSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    baseUrl: z.string(),
    description: z.string().nullable(),
    /** Where an article lives under baseUrl (`/blog/{slug}`); null: `/{slug}`. */
    urlPattern: z.string().nullable(),
    /** Where preview links of its articles point (`{token}` in it); null: the API's own page. */
    previewUrl: z.string().nullable(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'Site' });
export type SiteDto = z.output<typeof SiteSchema>;
