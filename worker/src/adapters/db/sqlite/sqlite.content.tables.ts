import { index, integer, primaryKey, sqliteTable, text, unique } from 'drizzle-orm/sqlite-core';
import type { ARTICLE_FORMATS, ARTICLE_STATUSES, ImageContentType } from '../../../wire/vocabulary.js';
import { createdAt, id, nameAndSlug, ref, timestamp, timestamps, uuid } from './sqlite.columns.js';

/**
 * The content tables on SQLite / D1: sites, authors, tags, redirects, articles and what
 * hangs off them (links, images, previews, drafts, revisions). The MySQL and
 * PostgreSQL tables mirror them property for property
 * (drizzle/schema-parity.ts checks that), because the shared repositories are
 * typed against these; the comments live here, once.
 */

type Format = (typeof ARTICLE_FORMATS)[number];
type Status = (typeof ARTICLE_STATUSES)[number];

export const sites = sqliteTable('sites', {
  id: id(),
  name: text('name').notNull(),
  baseUrl: text('base_url').notNull(),
  description: text('description'),
  /** Where an article lives under baseUrl, e.g. `/blog/{slug}`; null: `/{slug}`. */
  urlPattern: text('url_pattern'),
  /** Where the site shows a preview link's draft, holding `{token}`; null: the API's own page. */
  previewUrl: text('preview_url'),
  ...timestamps(),
});

export const authors = sqliteTable('authors', {
  id: id(),
  ...nameAndSlug('authors'),
  bio: text('bio'),
  avatarUrl: text('avatar_url'),
  ...timestamps(),
});

/** Tags articles carry (features/tags/); `slug` is how the public asks for them (`?tag=`). */
export const tags = sqliteTable('tags', { id: id(), ...nameAndSlug('tags'), ...timestamps() });

/** The glossary (features/glossary/): a term, its unique slug and what it means, in plain text. */
export const glossaryTerms = sqliteTable('glossary_terms', {
  id: id(),
  ...nameAndSlug('glossary_terms'),
  definition: text('definition').notNull(),
  ...timestamps(),
});

/**
 * Old paths of the sites and where they now go (features/redirects/). `from`
 * is unique through `fromHash`, the hex SHA-256 of it: a path of 2,000
 * characters is longer than MySQL's and PostgreSQL's index entries may be.
 */
export const redirects = sqliteTable('redirects', {
  id: id(),
  from: text('from_path').notNull(),
  fromHash: text('from_hash').notNull().unique('redirects_from_hash_unique'),
  to: text('to_location').notNull(),
  /** 301, 302, 307 or 308. */
  status: integer('status').notNull(),
  ...timestamps(),
});

export const articles = sqliteTable(
  'articles',
  {
    id: id(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    format: text('format').$type<Format>().notNull(),
    status: text('status').$type<Status>().notNull(),
    siteId: uuid('site_id').references(() => sites.id),
    ...timestamps(),
    publishedAt: timestamp('published_at'),
    /** The article's SEO data as JSON (null: none set); a text column so the purge can rewrite image names in it like the body. */
    seo: text('seo'),
    /** When the scheduler is to publish it (offline until then); null when not scheduled. */
    scheduledAt: timestamp('scheduled_at'),
    /** Raised by one on every write: the article's ETag, checked by If-Match in the write itself. */
    version: integer('version').notNull().default(1),
    /** `a-z0-9-`, unique per scope (the default '' only lets the migration add the column to filled tables). */
    slug: text('slug').notNull().default(''),
    /** The slug's scope: the site id, or '' for articles without a site (they share one scope; NULLs would never clash). */
    slugScope: text('slug_scope').notNull().default(''),
    /** The author's excerpt; null: derived from the body when answered. */
    excerpt: text('excerpt'),
    /** The body rendered and sanitised when it was written; null: not rendered yet (rendered when read). */
    html: text('html'),
    /** One of the article's images (no foreign key: an image that is no longer linked reads as no feature image). */
    featureImageId: uuid('feature_image_id'),
  },
  (t) => [
    unique('articles_slug_scope_slug_unique').on(t.slugScope, t.slug),
    // A lookup by slug in any site: the unique index above starts with the scope.
    index('articles_slug_idx').on(t.slug),
    index('articles_status_id_idx').on(t.status, t.id),
    index('articles_site_id_id_idx').on(t.siteId, t.id),
    index('articles_scheduled_at_idx').on(t.scheduledAt),
    // The scheduler's due articles: offline ones scheduled by now, in schedule order. Without it SQLite,
    // which keeps no statistics, reads them through the status index: every offline article, each tick.
    index('articles_status_scheduled_at_idx').on(t.status, t.scheduledAt),
  ],
);

export const articleAuthors = sqliteTable(
  'article_authors',
  {
    articleId: ref('article_id', () => articles.id, 'cascade'),
    authorId: ref('author_id', () => authors.id, 'restrict'),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ name: 'article_authors_pk', columns: [t.articleId, t.authorId] }),
    index('article_authors_author_id_idx').on(t.authorId),
    // Author links are read per article in position order: without this the
    // lookup sorts in a temporary b-tree on every article read.
    index('article_authors_article_id_position_idx').on(t.articleId, t.position),
  ],
);

/** An article's tags, in the editor's order; deleting either side removes the link. */
export const articleTags = sqliteTable(
  'article_tags',
  {
    articleId: ref('article_id', () => articles.id, 'cascade'),
    tagId: ref('tag_id', () => tags.id, 'cascade'),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ name: 'article_tags_pk', columns: [t.articleId, t.tagId] }),
    // The `?tag=` filter goes from the tag to its articles.
    index('article_tags_tag_id_idx').on(t.tagId),
    index('article_tags_article_id_position_idx').on(t.articleId, t.position),
  ],
);

export const images = sqliteTable(
  'images',
  {
    id: id(),
    articleId: ref('article_id', () => articles.id),
    filename: text('filename').notNull().unique('images_filename_unique'),
    contentType: text('content_type').$type<ImageContentType>().notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
    /** The uploaded file's name, sanitised; null for images uploaded before names were kept. */
    originalName: text('original_name'),
    alt: text('alt').notNull().default(''),
    caption: text('caption').notNull().default(''),
  },
  (t) => [index('images_sha256_idx').on(t.sha256), index('images_article_id_id_idx').on(t.articleId, t.id)],
);

/**
 * Which articles show which image. images.article_id only says which article
 * an image was uploaded for; the links are what an article renders, so a
 * duplicate can be folded into its survivor by moving links, never by
 * copying bytes (docs/architecture.md, "Images and the link table").
 */
export const articleImages = sqliteTable(
  'article_images',
  {
    articleId: ref('article_id', () => articles.id, 'cascade'),
    imageId: ref('image_id', () => images.id, 'cascade'),
  },
  (t) => [
    primaryKey({ name: 'article_images_pk', columns: [t.articleId, t.imageId] }),
    index('article_images_image_id_idx').on(t.imageId),
  ],
);

/** Preview links: only the SHA-256 of each token is stored; they go with their article. */
export const previewTokens = sqliteTable(
  'preview_tokens',
  {
    id: id(),
    articleId: ref('article_id', () => articles.id, 'cascade'),
    tokenHash: text('token_hash').notNull().unique('preview_tokens_token_hash_unique'),
    expiresAt: timestamp('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('preview_tokens_article_id_idx').on(t.articleId),
    index('preview_tokens_expires_at_idx').on(t.expiresAt),
  ],
);

/**
 * An article's pending draft (docs/api.md#drafts): at most one, the fields
 * it would have as JSON (`fields`), its own `version` for If-Match, and the
 * article version it was started from.
 */
export const articleDrafts = sqliteTable(
  'article_drafts',
  {
    articleId: uuid('article_id')
      .primaryKey()
      .references(() => articles.id, { onDelete: 'cascade' }),
    fields: text('fields').notNull(),
    version: integer('version').notNull(),
    baseVersion: integer('base_version').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    /** When the scheduler makes it live (a scheduled update); null: not scheduled. */
    publishAt: timestamp('publish_at'),
  },
  (t) => [index('article_drafts_publish_at_idx').on(t.publishAt)],
);

/**
 * What an online article was at each publication and update, newest last
 * (ids are UUIDv7): its fields as JSON, bounded per article by count and
 * bytes (REVISIONS_MAX_COUNT, REVISIONS_MAX_BYTES).
 */
export const articleRevisions = sqliteTable(
  'article_revisions',
  {
    id: id(),
    articleId: ref('article_id', () => articles.id, 'cascade'),
    createdAt: createdAt(),
    actorType: text('actor_type').notNull(),
    actorId: uuid('actor_id'),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    fields: text('fields').notNull(),
    bytes: integer('bytes').notNull(),
  },
  (t) => [index('article_revisions_article_id_id_idx').on(t.articleId, t.id)],
);
