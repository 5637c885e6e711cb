import * as z from 'zod';
import { PageQuerySchema } from '../../contract/pagination.schema.js';
import { CONTROL_CHARS, LONE_SURROGATE } from '../../contract/text.js';
import { type SeoDto, SeoInputSchema } from './seo.schema.js';

export { LONE_SURROGATE };

/** The one title rule, shared by the API, the domain and the admin. */
export const TitleSchema = z
  .string({ error: 'title must be a string' })
  .trim()
  .min(1, 'title must not be empty')
  .max(200, 'title must be at most 200 characters')
  .refine((t) => !CONTROL_CHARS.test(t), 'title must not contain control characters')
  .refine((t) => !LONE_SURROGATE.test(t), 'title must be valid Unicode (no lone surrogates)');

/** Any length, may be empty. NUL is refused because PostgreSQL cannot store it. */
export const BodySchema = z
  .string({ error: 'body must be a string' })
  .refine((b) => !b.includes('\u0000'), 'body must not contain NUL characters')
  .refine((b) => !LONE_SURROGATE.test(b), 'body must be valid Unicode (no lone surrogates)');

export const ARTICLE_FORMATS = ['markdown', 'html', 'plaintext'] as const;
export const ArticleFormatSchema = z.enum(ARTICLE_FORMATS);
export type ArticleFormat = z.infer<typeof ArticleFormatSchema>;

export const ARTICLE_STATUSES = ['online', 'offline'] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

export const IdSchema = z.uuid({ error: 'must be a UUID' });

export const CreateArticleSchema = z.object({
  title: TitleSchema,
  body: BodySchema.optional().default(''),
  format: ArticleFormatSchema.optional().default('markdown'),
  siteId: IdSchema.nullable().optional(),
  authorIds: z.array(IdSchema).max(50).optional(),
  seo: SeoInputSchema.optional(),
});
export type CreateArticleInput = z.output<typeof CreateArticleSchema>;

export const UpdateArticleSchema = z.object({
  title: TitleSchema.optional(),
  body: BodySchema.optional(),
  format: ArticleFormatSchema.optional(),
  siteId: IdSchema.nullable().optional(),
  authorIds: z.array(IdSchema).max(50).optional(),
});
export type UpdateArticleInput = z.output<typeof UpdateArticleSchema>;

export const ListArticlesQuerySchema = PageQuerySchema.extend({
  status: z.enum(ARTICLE_STATUSES).optional(),
  siteId: IdSchema.optional(),
});

export interface ImageDto {
  id: string;
  articleId: string;
  filename: string;
  url: string;
  contentType: string;
  bytes: number;
  width: number;
  height: number;
  sha256: string;
  createdAt: string;
}

export interface ArticleDto {
  id: string;
  title: string;
  body: string;
  format: ArticleFormat;
  status: ArticleStatus;
  siteId: string | null;
  authorIds: string[];
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  seo: SeoDto;
  images: ImageDto[];
}
