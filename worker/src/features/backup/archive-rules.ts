import * as z from 'zod';
import type { TableRules } from '../../ports/table-export.js';
import { IdSchema, isHttpUrl, longTextSchema, nameSchema, Sha256HexSchema } from '../../wire/common.schema.js';
import { MAX_FILE_NAME_LENGTH, sanitizeFileName } from '../../wire/file-name.js';
import { ArticleSlugSchema, NameSlugSchema } from '../../wire/slug.js';
import { EmailSchema, ROLES } from '../accounts/user.schema.js';
import { ARTICLE_FORMATS, ARTICLE_STATUSES, TitleSchema } from '../articles/article.schema.js';
import { ArticleFieldsSchema, REVISION_ACTOR_TYPES } from '../articles/article-draft.schema.js';
import { SeoInputSchema, SeoSchema } from '../articles/seo.schema.js';
import {
  IMAGE_CONTENT_TYPES,
  IMAGE_EXTENSIONS,
  type ImageContentType,
  MAX_ALT_LENGTH,
  MAX_CAPTION_LENGTH,
} from '../media/media.schema.js';
import { PreviewUrlSchema, UrlPatternSchema } from '../sites/site.schema.js';

/**
 * The archive rules of the tables written before features declared their
 * own beside their table's export decision (ports/table-export.ts): the
 * features' own schemas, reused. A row that no write of this version could
 * have made is refused, naming its line, before anything reaches the
 * database.
 */
export type { TableRules };

/** The installation's own bounds on images (MAX_UPLOAD_BYTES, MAX_IMAGE_PIXELS). */
export interface RuleLimits {
  maxUploadBytes: number;
  maxImagePixels: number;
}

/** A text column the rules say nothing else about: one line's worth, never a document. */
export const DEFAULT_MAX_TEXT = 2000;
/** Integers the three databases all store (PostgreSQL's and MySQL's `integer` are 32-bit). */
export const MAX_INTEGER = 2 ** 31 - 1;

const text = (max: number) => z.string().max(max, `at most ${max} characters`);
const httpUrl = z.string().max(2000, 'at most 2,000 characters').refine(isHttpUrl, 'an http(s) URL');
const storedEmail = EmailSchema.refine((e) => e === e.toLowerCase(), 'lower-case, as accounts store it');
const positive = z.int().min(1, 'at least 1');
/** The SEO record as the API stores it: JSON of every field, each passing the API's own rules. */
const seoText = z.string().refine((t) => {
  try {
    const value: unknown = JSON.parse(t);
    return SeoSchema.strict().safeParse(value).success && SeoInputSchema.safeParse(value).success;
  } catch {
    return false;
  }
}, 'the JSON of an SEO record');

/** A draft's or a revision's fields as stored: JSON passing the rules the API applies to each. */
const articleFieldsText = z.string().refine((t) => {
  try {
    return ArticleFieldsSchema.safeParse(JSON.parse(t)).success;
  } catch {
    return false;
  }
}, "the JSON of an article's fields");

const extensionOf = (type: ImageContentType) => IMAGE_EXTENSIONS[type];

export function archiveRules(limits: RuleLimits): Readonly<Record<string, TableRules>> {
  return {
    users: {
      columns: {
        id: IdSchema,
        email: storedEmail,
        displayName: text(100),
        role: z.enum(ROLES, `one of ${ROLES.join(', ')}`),
      },
      unique: [['id'], ['email']],
      // The database's "exactly one owner" lock follows the role.
      row: (r) =>
        (r.role === 'owner') === (r.ownerLock === 1) && (r.role === 'owner' || r.ownerLock == null)
          ? null
          : 'ownerLock must be 1 for the owner and null for everyone else',
    },
    sites: {
      columns: {
        id: IdSchema,
        name: nameSchema('name'),
        baseUrl: httpUrl,
        description: longTextSchema('description'),
        urlPattern: UrlPatternSchema,
        previewUrl: PreviewUrlSchema,
      },
      unique: [['id']],
    },
    authors: {
      columns: {
        id: IdSchema,
        name: nameSchema('name'),
        slug: NameSlugSchema,
        bio: longTextSchema('bio'),
        avatarUrl: httpUrl,
      },
      unique: [['id'], ['slug']],
    },
    tags: {
      columns: { id: IdSchema, name: nameSchema('name'), slug: NameSlugSchema },
      unique: [['id'], ['slug']],
    },
    articles: {
      columns: {
        id: IdSchema,
        title: TitleSchema,
        // The body and its rendering are bounded by the archive's line length.
        body: z.string(),
        html: z.string(),
        format: z.enum(ARTICLE_FORMATS, `one of ${ARTICLE_FORMATS.join(', ')}`),
        status: z.enum(ARTICLE_STATUSES, `one of ${ARTICLE_STATUSES.join(', ')}`),
        seo: seoText,
        version: positive,
        slug: ArticleSlugSchema,
        slugScope: z.string().max(36),
        excerpt: text(500),
        featureImageId: IdSchema,
      },
      refs: { siteId: 'sites' },
      unique: [['id'], ['slugScope', 'slug']],
      row: (r) => (r.slugScope === (r.siteId ?? '') ? null : "slugScope must be the article's siteId (or '')"),
    },
    articleAuthors: {
      refs: { articleId: 'articles', authorId: 'authors' },
      unique: [['articleId', 'authorId']],
    },
    articleTags: {
      refs: { articleId: 'articles', tagId: 'tags' },
      unique: [['articleId', 'tagId']],
    },
    images: {
      columns: {
        id: IdSchema,
        contentType: z.enum(IMAGE_CONTENT_TYPES, `one of ${IMAGE_CONTENT_TYPES.join(', ')}`),
        bytes: z.int().max(limits.maxUploadBytes, `at most ${limits.maxUploadBytes} (MAX_UPLOAD_BYTES)`),
        width: positive,
        height: positive,
        sha256: Sha256HexSchema,
        originalName: text(4 * MAX_FILE_NAME_LENGTH).refine((n) => sanitizeFileName(n) === n, 'a sanitised file name'),
        alt: text(MAX_ALT_LENGTH),
        caption: text(MAX_CAPTION_LENGTH),
      },
      refs: { articleId: 'articles' },
      unique: [['id'], ['filename']],
      row: (r) => {
        const type = r.contentType as ImageContentType;
        if (r.filename !== `${r.id}.${extensionOf(type)}`) return `filename must be ${r.id}.${extensionOf(type)}`;
        if ((r.width as number) * (r.height as number) > limits.maxImagePixels)
          return `the image has more than ${limits.maxImagePixels} pixels (MAX_IMAGE_PIXELS)`;
        return null;
      },
    },
    articleImages: {
      refs: { articleId: 'articles', imageId: 'images' },
      unique: [['articleId', 'imageId']],
    },
    articleDrafts: {
      columns: { articleId: IdSchema, fields: articleFieldsText, version: positive, baseVersion: positive },
      refs: { articleId: 'articles' },
      unique: [['articleId']],
    },
    articleRevisions: {
      columns: {
        id: IdSchema,
        articleId: IdSchema,
        actorType: z.enum(REVISION_ACTOR_TYPES, `one of ${REVISION_ACTOR_TYPES.join(', ')}`),
        actorId: IdSchema,
        version: positive,
        title: TitleSchema,
        fields: articleFieldsText,
        bytes: z.int().min(0),
      },
      refs: { articleId: 'articles' },
      unique: [['id']],
      // The title is the one the fields hold, and bytes what they weigh: what the list shows and the bound counts.
      row: (r) => {
        const fields = JSON.parse(r.fields as string) as { title: string };
        if (fields.title !== r.title) return "title must be the title in the revision's fields";
        if (new TextEncoder().encode(r.fields as string).byteLength !== r.bytes)
          return "bytes must be the UTF-8 size of the revision's fields";
        return null;
      },
    },
    purgeSettings: {
      columns: {
        id: z.literal('media', "'media'"),
        intervalHours: z.int().min(1).max(720),
        orphanGraceHours: z.int().min(1).max(8760),
      },
      unique: [['id']],
    },
  };
}
