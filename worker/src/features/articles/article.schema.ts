import * as z from 'zod';
import { IdSchema, TimestampSchema } from '../../contract/common.schema.js';
import { ErrorSchema } from '../../contract/errors.js';
import { PageQuerySchema } from '../../contract/pagination.schema.js';
import { ArticleSlugSchema, NameSlugSchema } from '../../contract/slug.js';
import { CONTROL_CHARS, LONE_SURROGATE } from '../../contract/text.js';
import { ARTICLE_FORMATS, ARTICLE_STATUSES, type ArticleStatus } from '../../contract/vocabulary.js';
import { ImageSchema, PictureSchema } from '../media/media.schema.js';
import { TagRefSchema } from '../tags/tags.schema.js';
import { SeoInputSchema, SeoSchema } from './seo.schema.js';

export { ARTICLE_FORMATS, ARTICLE_STATUSES, type ArticleStatus, LONE_SURROGATE };

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

export const ArticleFormatSchema = z.enum(ARTICLE_FORMATS);
export type ArticleFormat = z.infer<typeof ArticleFormatSchema>;

/** The author's summary: up to 500 characters; `""` or null clears it (answers then derive one from the body). */
export const ExcerptInputSchema = z
  .string({ error: 'excerpt must be a string' })
  .max(500, 'excerpt must be at most 500 characters')
  .refine((e) => !e.includes('\u0000'), 'excerpt must not contain NUL characters')
  .refine((e) => !LONE_SURROGATE.test(e), 'excerpt must be valid Unicode (no lone surrogates)')
  .transform((e) => (e.trim() === '' ? null : e))
  .nullable();

/** One of the article's images, or null for none. */
const FeatureImageIdSchema = IdSchema.transform((id) => id.toLowerCase()).nullable();

export const CreateArticleSchema = z.object({
  title: TitleSchema,
  body: BodySchema.optional().default(''),
  format: ArticleFormatSchema.optional().default('markdown'),
  siteId: IdSchema.nullable().optional(),
  authorIds: z.array(IdSchema).max(50).optional(),
  /** In the order the article shows them. */
  tagIds: z.array(IdSchema).max(50).optional(),
  seo: SeoInputSchema.optional(),
  /** Made from the title when absent (with `-2`, `-3`… when that one is taken). */
  slug: ArticleSlugSchema.optional(),
  excerpt: ExcerptInputSchema.optional(),
  featureImageId: FeatureImageIdSchema.optional(),
});
export type CreateArticleInput = z.output<typeof CreateArticleSchema>;

export const UpdateArticleSchema = z.object({
  title: TitleSchema.optional(),
  body: BodySchema.optional(),
  format: ArticleFormatSchema.optional(),
  siteId: IdSchema.nullable().optional(),
  authorIds: z.array(IdSchema).max(50).optional(),
  tagIds: z.array(IdSchema).max(50).optional(),
  slug: ArticleSlugSchema.optional(),
  excerpt: ExcerptInputSchema.optional(),
  featureImageId: FeatureImageIdSchema.optional(),
});
export type UpdateArticleInput = z.output<typeof UpdateArticleSchema>;

export const ARTICLE_SORTS = ['createdAt', 'updatedAt', 'publishedAt', 'title'] as const;
export type ArticleSort = (typeof ARTICLE_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * `GET /v1/articles`. One field per filter: a new filter is one more line
 * here, one more condition in the list read. Strings arrive as strings; a
 * repeated parameter arrives as an array and is refused.
 */
export const ListArticlesQuerySchema = PageQuerySchema.extend({
  // A sorted page's cursor carries the last article's sort value (a title is up to 200 characters).
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,1200}$/, 'cursor is not one this server gave out')
    .optional(),
  status: z.enum(ARTICLE_STATUSES).optional(),
  siteId: IdSchema.optional(),
  /** A tag's slug: only the articles that carry it. */
  tag: NameSlugSchema.optional(),
  authorId: IdSchema.optional().meta({ description: 'Only articles this author is credited on' }),
  q: z
    .string({ error: 'q must be a single string' })
    .trim()
    .max(48, 'q must be at most 48 characters')
    .refine((t) => !CONTROL_CHARS.test(t), 'q must not contain control characters')
    .refine((t) => !LONE_SURROGATE.test(t), 'q must be valid Unicode (no lone surrogates)')
    .optional()
    .transform((t) => (t === '' ? undefined : t))
    .meta({
      description:
        'Text the title or body contains, taken literally (`%`, `_` are not wildcards); A–Z match either case; at most 48 bytes once `%`, `_` and `!` count twice; empty means no filter',
    }),
  sort: z.enum(ARTICLE_SORTS).optional().default('createdAt').meta({
    description: 'Sort key; ties go by id. `publishedAt`: never-published articles come last in either order',
  }),
  order: z.enum(SORT_ORDERS).optional().default('desc').meta({ description: 'Sort order (default newest first)' }),
  slug: ArticleSlugSchema.optional(),
  include: z.literal('html', { error: 'include must be html' }).optional(),
});

export const ArticleSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    body: z.string(),
    format: ArticleFormatSchema,
    status: z.enum(ARTICLE_STATUSES),
    siteId: z.uuid().nullable(),
    authorIds: z.array(z.uuid()),
    tags: z.array(TagRefSchema),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    publishedAt: TimestampSchema.nullable(),
    /** When the scheduler will publish it (it stays offline until then); null when not scheduled. */
    scheduledAt: TimestampSchema.nullable(),
    seo: SeoSchema,
    images: z.array(ImageSchema),
    /** Raised by one on every write; the `ETag` of an editor's read and of write answers is `"v<version>"`. */
    version: z.number().int().min(1),
    slug: z.string(),
    /** The author's excerpt, else plain text from the start of the body (≤ 300 characters). */
    excerpt: z.string(),
    /** The body rendered to sanitised HTML (links to our images absolute). */
    html: z.string(),
    featureImageId: z.uuid().nullable(),
    featureImage: PictureSchema.nullable(),
    /** The body's words / 230, rounded, at least 1 when it has any word (core/content/reading-time.ts). */
    readingTimeMinutes: z.number().int().min(0),
  })
  .meta({ id: 'Article' });
export type ArticleDto = z.output<typeof ArticleSchema>;

/** 412: a conditional write found another version; `article` only when the caller may read it. */
export const ArticleConflictSchema = ErrorSchema.extend({
  version: z.number().int().min(1),
  article: ArticleSchema.optional(),
}).meta({ id: 'ArticleConflict' });
/** An article in a list: `html` only with `?include=html`. */
export const ArticleListItemSchema = ArticleSchema.extend({ html: z.string().optional() }).meta({
  id: 'ArticleListItem',
});
export type ArticleListItemDto = z.output<typeof ArticleListItemSchema>;
