import * as z from 'zod';
import { nameSchema, TimestampSchema } from '../../contract/common.schema.js';
import { SLUG } from '../authors/author.schema.js';

export const TAG_SLUG_MAX = 100;

export const TagSlugSchema = z
  .string({ error: 'slug must be a string' })
  .min(1, 'slug must not be empty')
  .max(TAG_SLUG_MAX, `slug must be at most ${TAG_SLUG_MAX} characters`)
  .regex(SLUG, 'slug must be lower-case letters and digits separated by single hyphens');

/** Without a slug, one is made from the name (tag-slug.ts). */
export const CreateTagSchema = z.object({
  name: nameSchema('name'),
  slug: TagSlugSchema.optional(),
});
export type CreateTagInput = z.output<typeof CreateTagSchema>;

export const UpdateTagSchema = z.object({
  name: nameSchema('name').optional(),
  slug: TagSlugSchema.optional(),
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
