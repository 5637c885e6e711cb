import * as z from 'zod';
import { nameSchema, TimestampSchema } from '../../wire/common.schema.js';
import { NameSlugSchema } from '../../wire/slug.js';

/** Without a slug, one is made from the name (tags.service.ts). */
export const CreateTagSchema = z.object({
  name: nameSchema('name'),
  slug: NameSlugSchema.optional(),
});
export type CreateTagInput = z.output<typeof CreateTagSchema>;

export const UpdateTagSchema = z.object({
  name: nameSchema('name').optional(),
  slug: NameSlugSchema.optional(),
});
export type UpdateTagInput = z.output<typeof UpdateTagSchema>;

export const TagSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'Tag' });
export type TagDto = z.output<typeof TagSchema>;

/** A tag as an article carries it (`article.tags`, in the article's order). */
export const TagRefSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
  })
  .meta({ id: 'TagRef' });
export type TagRef = z.output<typeof TagRefSchema>;
