import * as z from 'zod';
import { isHttpUrl, longTextSchema, nameSchema, TimestampSchema } from '../../wire/common.schema.js';
import { NameSlugSchema } from '../../wire/slug.js';

const UPLOADED = '/static/uploadedImages/';

const AvatarUrlSchema = z
  .string({ error: 'avatarUrl must be a string' })
  .max(2000, 'avatarUrl must be at most 2,000 characters')
  .refine(
    (v) =>
      isHttpUrl(v) ||
      (v.startsWith(UPLOADED) && v.length > UPLOADED.length && /^[A-Za-z0-9._/-]+$/.test(v) && !v.includes('..')),
    'avatarUrl must be an http(s) URL or a path starting with /static/uploadedImages/',
  )
  .nullable();

export const CreateAuthorSchema = z.object({
  name: nameSchema('name'),
  slug: NameSlugSchema,
  bio: longTextSchema('bio').optional().default(null),
  avatarUrl: AvatarUrlSchema.optional().default(null),
});
export type CreateAuthorInput = z.output<typeof CreateAuthorSchema>;

export const UpdateAuthorSchema = z.object({
  name: nameSchema('name').optional(),
  slug: NameSlugSchema.optional(),
  bio: longTextSchema('bio').optional(),
  avatarUrl: AvatarUrlSchema.optional(),
});
export type UpdateAuthorInput = z.output<typeof UpdateAuthorSchema>;

export const AuthorSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    bio: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'Author' });
export type AuthorDto = z.output<typeof AuthorSchema>;

/** An author as an article embeds it (`include=authors`): what a byline needs. */
export const AuthorRefSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    bio: z.string().nullable(),
    avatarUrl: z.string().nullable(),
  })
  .meta({ id: 'AuthorRef' });
export type AuthorRef = z.output<typeof AuthorRefSchema>;
