import * as z from 'zod';
import { IdSchema, TimestampSchema } from '../../wire/common.schema.js';
import { ErrorSchema } from '../../wire/errors.js';
import { ArticleSlugSchema } from '../../wire/slug.js';
import { ArticleFormatSchema, BodySchema, TitleSchema, UpdateArticleSchema } from './article.schema.js';
import { SeoInputSchema, SeoSchema } from './seo.schema.js';

/**
 * `PUT /v1/articles/:id/draft`: the fields PATCH takes, the SEO record
 * among them (whole, as `PUT …/seo` takes it). A field left out keeps the
 * draft's value (the live article's while there is no draft yet).
 */
export const DraftInputSchema = UpdateArticleSchema;
export type DraftInput = z.output<typeof DraftInputSchema>;

/** The fields of an article a draft or a revision holds, as stored (JSON) and as archives carry them. */
export const ArticleFieldsSchema = z
  .object({
    title: TitleSchema,
    body: BodySchema,
    format: ArticleFormatSchema,
    siteId: IdSchema.nullable(),
    authorIds: z.array(IdSchema).max(50),
    tagIds: z.array(IdSchema).max(50),
    seo: SeoSchema.strict().refine((s) => SeoInputSchema.safeParse(s).success, 'an SEO record the API accepts'),
    slug: ArticleSlugSchema,
    excerpt: z.string().max(500).nullable(),
    featureImageId: IdSchema.nullable(),
  })
  .strict();

/** The fields a draft or revision holds, in the order they are stored. */
export const ARTICLE_FIELD_KEYS = [
  'title',
  'body',
  'format',
  'siteId',
  'authorIds',
  'tagIds',
  'seo',
  'slug',
  'excerpt',
  'featureImageId',
] as const satisfies readonly (keyof z.output<typeof ArticleFieldsSchema>)[];

/** The fields as one JSON text, in that order: what is stored, and what a revision's `bytes` weighs. */
export const fieldsText = (f: Readonly<Record<(typeof ARTICLE_FIELD_KEYS)[number], unknown>>): string =>
  JSON.stringify(Object.fromEntries(ARTICLE_FIELD_KEYS.map((k) => [k, f[k]])));

const fields = {
  title: z.string(),
  body: z.string(),
  format: ArticleFormatSchema,
  siteId: z.uuid().nullable(),
  authorIds: z.array(z.uuid()),
  tagIds: z.array(z.uuid()),
  seo: SeoSchema,
  slug: z.string(),
  /** The author's excerpt; null: answers derive one from the body. */
  excerpt: z.string().nullable(),
  featureImageId: z.uuid().nullable(),
};

export const DraftSchema = z
  .object({
    articleId: z.uuid(),
    ...fields,
    /** Raised by one on every write of the draft; its `ETag` is `"d<version>"`. */
    version: z.number().int().min(1),
    /** The article's version when the draft was started: a higher live version means someone edited it since. */
    baseVersion: z.number().int().min(1),
    updatedAt: TimestampSchema,
    /** When the scheduler makes it live (`POST …/draft/schedule`); null: not scheduled. */
    publishAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'ArticleDraft' });
export type DraftDto = z.output<typeof DraftSchema>;

/** 412 on a draft: `version` is the draft's current one (0: there is none), `draft` it as it stands. */
export const DraftConflictSchema = ErrorSchema.extend({
  version: z.number().int().min(0),
  draft: DraftSchema.optional(),
}).meta({ id: 'ArticleDraftConflict' });

/** How far ahead a draft's update may be scheduled: as far as a publication (features/scheduling). */
export const MAX_DRAFT_AHEAD_DAYS = 3660;

/** `POST /v1/articles/:id/draft/schedule`. */
export const DraftScheduleSchema = z.object({
  publishAt: z.iso
    .datetime({ offset: true, error: 'publishAt must be an ISO-8601 date and time' })
    .transform((s) => new Date(s)),
});

export const REVISION_ACTOR_TYPES = ['user', 'apiKey', 'system'] as const;

export const RevisionListItemSchema = z
  .object({
    id: z.uuid(),
    createdAt: TimestampSchema,
    /** The article's version this revision records. */
    version: z.number().int().min(1),
    title: z.string(),
    /** Who made it: an account, an API key, or the system (the scheduler). */
    actorType: z.enum(REVISION_ACTOR_TYPES),
    actorId: z.uuid().nullable(),
    /** What it counts against REVISIONS_MAX_BYTES (its fields as JSON, in UTF-8). */
    bytes: z.number().int().min(0),
  })
  .meta({ id: 'ArticleRevisionListItem' });
export type RevisionListItemDto = z.output<typeof RevisionListItemSchema>;

export const RevisionSchema = RevisionListItemSchema.extend({ articleId: z.uuid(), ...fields }).meta({
  id: 'ArticleRevision',
});
export type RevisionDto = z.output<typeof RevisionSchema>;
