import * as z from 'zod';
import { IdSchema, TimestampSchema } from '../../wire/common.schema.js';
import { ErrorSchema } from '../../wire/errors.js';
import { PageQuerySchema } from '../../wire/pagination.schema.js';
import { ArticleSlugSchema, NameSlugSchema } from '../../wire/slug.js';
import { CONTROL_CHARS, LONE_SURROGATE } from '../../wire/text.js';
import { ARTICLE_FORMATS, ARTICLE_STATUSES, type ArticleStatus } from '../../wire/vocabulary.js';
import { AuthorRefSchema } from '../authors/author.schema.js';
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
  /** The whole SEO record, as `PUT …/seo` takes it (what it leaves out is cleared); absent: unchanged. */
  seo: SeoInputSchema.optional(),
});
export type UpdateArticleInput = z.output<typeof UpdateArticleSchema>;

export const ARTICLE_SORTS = ['createdAt', 'updatedAt', 'publishedAt', 'title'] as const;
export type ArticleSort = (typeof ARTICLE_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** A neighbour of an article (`include=adjacent`): enough to link to it. */
export const AdjacentArticleSchema = z
  .object({ id: z.uuid(), slug: z.string(), title: z.string() })
  .meta({ id: 'AdjacentArticle' });
export type AdjacentArticle = z.output<typeof AdjacentArticleSchema>;

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
    /** With `include=authors`: `authorIds`' authors, in credit order (one deleted meanwhile is left out). */
    authors: z.array(AuthorRefSchema).optional(),
    /** With `include=adjacent` (single reads): the online article of the same site published next after it. */
    next: AdjacentArticleSchema.nullable().optional(),
    /** With `include=adjacent` (single reads): the online article of the same site published last before it. */
    previous: AdjacentArticleSchema.nullable().optional(),
  })
  .meta({ id: 'Article' });
export type ArticleDto = z.output<typeof ArticleSchema>;

/** 412: a conditional write found another version; `article` only when the caller may read it. */
export const ArticleConflictSchema = ErrorSchema.extend({
  version: z.number().int().min(1),
  article: ArticleSchema.optional(),
}).meta({ id: 'ArticleConflict' });
/** An article in a list: `html` only with `?include=html`, `authors` with `?include=authors`. */
export const ArticleListItemSchema = ArticleSchema.omit({ next: true, previous: true })
  .extend({ html: z.string().optional() })
  .meta({ id: 'ArticleListItem' });
export type ArticleListItemDto = z.output<typeof ArticleListItemSchema>;

/** What `fields=` may name: every field of a list item. */
export const LIST_FIELDS = Object.keys(ArticleListItemSchema.shape) as (keyof ArticleListItemDto)[];
export type ListField = keyof ArticleListItemDto;

/** A list item trimmed by `?fields=`: the fields named, and `id`. */
export const ArticleListItemFieldsSchema = ArticleListItemSchema.partial()
  .required({ id: true })
  .meta({ id: 'ArticleListItemFields' });
export type ArticleListItemFieldsDto = z.output<typeof ArticleListItemFieldsSchema>;

/** A time in ISO 8601: a date (`2026-11-25`, midnight UTC) or a date and time with `Z` or an offset. */
const instant = (name: string) =>
  z
    .string({ error: `${name} must be a single date or date-time` })
    .refine(
      (v) => z.iso.date().safeParse(v).success || z.iso.datetime({ offset: true, local: false }).safeParse(v).success,
      `${name} must be an ISO 8601 date (2026-11-25) or date-time with Z or an offset (2026-11-25T21:00:00Z)`,
    )
    .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v))
    .refine((d) => !Number.isNaN(d.getTime()), `${name} is not a real date`);

/** How many tags one `?tag=` filter may name: each is one more condition. */
export const MAX_TAG_FILTERS = 10;

/** A comma list of words from `known`, each at most once: `include=html,authors`, `fields=id,title`. */
const commaList = <const T extends string>(name: string, known: readonly T[]) =>
  z.string({ error: `${name} must be a single comma-separated list` }).transform((v, ctx) => {
    const words = v.split(',');
    for (const word of words) {
      if (!(known as readonly string[]).includes(word)) {
        ctx.addIssue({
          code: 'custom',
          message: `${name}: unknown ${JSON.stringify(word)} (known: ${known.join(', ')})`,
        });
        return z.NEVER;
      }
    }
    return [...new Set(words)] as T[];
  });

export const LIST_INCLUDES = ['html', 'authors'] as const;
export const READ_INCLUDES = ['authors', 'adjacent'] as const;
export type ReadInclude = (typeof READ_INCLUDES)[number];

/**
 * `GET /v1/articles`. One field per filter: a new filter is one more line
 * here, one more condition in the list read. Strings arrive as strings; a
 * repeated parameter arrives as an array and is refused, but for `tag`.
 */
export const ListArticlesQuerySchema = PageQuerySchema.extend({
  // A sorted page's cursor carries the last article's sort value (a title is up to 200 characters).
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,1200}$/, 'cursor is not one this server gave out')
    .optional(),
  page: z
    .string()
    .regex(/^[1-9][0-9]{0,3}$/, 'page must be a whole number from 1 to 9999')
    .transform(Number)
    .optional()
    .meta({
      type: 'integer',
      minimum: 1,
      maximum: 9999,
      description:
        'Page number of `limit` items each (page 2 of limit 2 is the 3rd and 4th item), in the same order as the cursors; not with `cursor`',
    }),
  status: z.enum(ARTICLE_STATUSES).optional(),
  scheduled: z
    .enum(['true', 'false'], { error: 'scheduled must be true or false' })
    .transform((v) => v === 'true')
    .optional()
    .meta({
      description:
        '`true`: only articles waiting for a scheduled publication (offline, `scheduledAt` set); `false`: only those without one',
    }),
  siteId: IdSchema.optional(),
  tag: z
    .union([NameSlugSchema.transform((t) => [t]), z.array(NameSlugSchema).max(MAX_TAG_FILTERS)], {
      error: `tag must be a tag slug, repeated up to ${MAX_TAG_FILTERS} times`,
    })
    .optional()
    .meta({
      description: `A tag's slug: only the articles that carry it; repeated (\`tag=a&tag=b\`, up to ${MAX_TAG_FILTERS}), those that carry all of them`,
    }),
  authorId: IdSchema.optional().meta({ description: 'Only articles this author is credited on' }),
  author: NameSlugSchema.optional().meta({ description: "An author's slug: only articles this author is credited on" }),
  publishedAfter: instant('publishedAfter')
    .optional()
    .meta({ description: 'Only articles first published at or after this time (ISO 8601; a date is midnight UTC)' }),
  publishedBefore: instant('publishedBefore')
    .optional()
    .meta({ description: 'Only articles first published before this time (ISO 8601; a date is midnight UTC)' }),
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
  include: commaList('include', LIST_INCLUDES)
    .optional()
    .meta({ description: "Comma list: `html` adds each item's `html`, `authors` its credited authors" }),
  fields: commaList('fields', LIST_FIELDS)
    .optional()
    .meta({
      description: `Comma list of the fields each item carries (\`id\` always): ${LIST_FIELDS.join(', ')}; naming \`html\` or \`authors\` includes them`,
    }),
});

/** `GET /v1/articles/{id}` and `/v1/articles/slug/{slug}`. */
export const ReadArticleQuerySchema = z.object({
  include: commaList('include', READ_INCLUDES).optional().meta({
    description:
      'Comma list: `authors` adds the credited authors, `adjacent` the next and previous online article of the same site',
  }),
});

export const ArticleBySlugQuerySchema = ReadArticleQuerySchema.extend({
  siteId: IdSchema.optional().meta({
    description: 'The site whose article it is; without it every site (and the articles without one) is searched',
  }),
});
