import * as z from 'zod';
import { CONTROL_CHARS, LONE_SURROGATE } from '../../contract/text.js';

/** A display name: 1..200 characters after trimming, no control characters. */
export const nameSchema = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, `${field} must not be empty`)
    .max(200, `${field} must be at most 200 characters`)
    .refine((t) => !CONTROL_CHARS.test(t), `${field} must not contain control characters`)
    .refine((t) => !LONE_SURROGATE.test(t), `${field} must be valid Unicode (no lone surrogates)`);

/** Free text up to 5,000 characters, or null. */
export const longTextSchema = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .max(5000, `${field} must be at most 5,000 characters`)
    .refine((t) => !t.includes('\u0000'), `${field} must not contain NUL characters`)
    .refine((t) => !LONE_SURROGATE.test(t), `${field} must be valid Unicode (no lone surrogates)`)
    .nullable();

export function isHttpUrl(value: string): boolean {
  if (CONTROL_CHARS.test(value) || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const BaseUrlSchema = z
  .string({ error: 'baseUrl must be a string' })
  .max(2000, 'baseUrl must be at most 2,000 characters')
  .refine(isHttpUrl, 'baseUrl must be an http(s) URL');

export const CreateSiteSchema = z.object({
  name: nameSchema('name'),
  baseUrl: BaseUrlSchema,
  description: longTextSchema('description').optional().default(null),
});
export type CreateSiteInput = z.output<typeof CreateSiteSchema>;

export const UpdateSiteSchema = z.object({
  name: nameSchema('name').optional(),
  baseUrl: BaseUrlSchema.optional(),
  description: longTextSchema('description').optional(),
});
export type UpdateSiteInput = z.output<typeof UpdateSiteSchema>;

export interface SiteDto {
  id: string;
  name: string;
  baseUrl: string;
  description: string | null;
  createdAt: string;
}
