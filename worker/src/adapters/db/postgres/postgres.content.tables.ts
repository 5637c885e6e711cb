import { index, integer, pgTable, primaryKey, text, unique } from 'drizzle-orm/pg-core';
import type { ARTICLE_FORMATS, ARTICLE_STATUSES, ImageContentType } from '../../../wire/vocabulary.js';
import { createdAt, id, nameAndSlug, ref, timestamp, timestamps, uuid } from './postgres.columns.js';

/** The content tables on PostgreSQL: the properties and result types of sqlite/sqlite.content.tables.ts (where the comments are). */

type Format = (typeof ARTICLE_FORMATS)[number];
type Status = (typeof ARTICLE_STATUSES)[number];

export const sites = pgTable('sites', {
  id: id(),
  name: text('name').notNull(),
  baseUrl: text('base_url').notNull(),
  urlPattern: text('url_pattern'),
  previewUrl: text('preview_url'),
  description: text('description'),
  ...timestamps(),
});

export const authors = pgTable('authors', {
  id: id(),
  ...nameAndSlug('authors'),
  bio: text('bio'),
  avatarUrl: text('avatar_url'),
  ...timestamps(),
});
export const tags = pgTable('tags', { id: id(), ...nameAndSlug('tags'), ...timestamps() });

export const glossaryTerms = pgTable('glossary_terms', {
  id: id(),
  ...nameAndSlug('glossary_terms'),
  definition: text('definition').notNull(),
  ...timestamps(),
});

export const redirects = pgTable('redirects', {
  id: id(),
  from: text('from_path').notNull(),
  fromHash: text('from_hash').notNull().unique('redirects_from_hash_unique'),
  to: text('to_location').notNull(),
  status: integer('status').notNull(),
  ...timestamps(),
});

export const articles = pgTable(
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
    seo: text('seo'),
    scheduledAt: timestamp('scheduled_at'),
    version: integer('version').notNull().default(1),
    slug: text('slug').notNull().default(''),
    slugScope: text('slug_scope').notNull().default(''),
    excerpt: text('excerpt'),
    html: text('html'),
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

export const articleAuthors = pgTable(
  'article_authors',
  {
    articleId: ref('article_id', () => articles.id, 'cascade'),
    authorId: ref('author_id', () => authors.id, 'restrict'),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ name: 'article_authors_pk', columns: [t.articleId, t.authorId] }),
    index('article_authors_author_id_idx').on(t.authorId),
    index('article_authors_article_id_position_idx').on(t.articleId, t.position),
  ],
);
export const articleTags = pgTable(
  'article_tags',
  {
    articleId: ref('article_id', () => articles.id, 'cascade'),
    tagId: ref('tag_id', () => tags.id, 'cascade'),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ name: 'article_tags_pk', columns: [t.articleId, t.tagId] }),
    index('article_tags_tag_id_idx').on(t.tagId),
    index('article_tags_article_id_position_idx').on(t.articleId, t.position),
  ],
);

export const images = pgTable(
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
    originalName: text('original_name'),
    alt: text('alt').notNull().default(''),
    caption: text('caption').notNull().default(''),
  },
  (t) => [index('images_sha256_idx').on(t.sha256), index('images_article_id_id_idx').on(t.articleId, t.id)],
);
export const articleImages = pgTable(
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
export const previewTokens = pgTable(
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
export const articleDrafts = pgTable(
  'article_drafts',
  {
    articleId: uuid('article_id')
      .primaryKey()
      .references(() => articles.id, { onDelete: 'cascade' }),
    fields: text('fields').notNull(),
    version: integer('version').notNull(),
    baseVersion: integer('base_version').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    publishAt: timestamp('publish_at'),
  },
  (t) => [index('article_drafts_publish_at_idx').on(t.publishAt)],
);
export const articleRevisions = pgTable(
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
