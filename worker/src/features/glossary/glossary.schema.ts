import * as z from 'zod';
import { longTextSchema, nameSchema, TimestampSchema } from '../../wire/common.schema.js';
import { NameSlugSchema } from '../../wire/slug.js';

/** What a term means, in plain text: required, at most 5,000 characters. */
const definitionSchema = longTextSchema('definition').unwrap().min(1, 'definition must not be empty');

/** Without a slug, one is made from the name (glossary.service.ts). */
export const CreateTermSchema = z.object({
  name: nameSchema('name'),
  slug: NameSlugSchema.optional(),
  definition: definitionSchema,
});
export type CreateTermInput = z.output<typeof CreateTermSchema>;

export const UpdateTermSchema = z.object({
  name: nameSchema('name').optional(),
  slug: NameSlugSchema.optional(),
  definition: definitionSchema.optional(),
});
export type UpdateTermInput = z.output<typeof UpdateTermSchema>;

export const TermSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    definition: z.string(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'Term' });
export type TermDto = z.output<typeof TermSchema>;
