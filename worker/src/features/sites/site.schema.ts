import * as z from 'zod';
import { isHttpUrl, longTextSchema, nameSchema, TimestampSchema } from '../../contract/common.schema.js';

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

export const SiteSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    baseUrl: z.string(),
    description: z.string().nullable(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'Site' });
export type SiteDto = z.output<typeof SiteSchema>;
