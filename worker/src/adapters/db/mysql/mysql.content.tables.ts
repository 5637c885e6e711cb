import { char, index, int, longtext, mysqlTable, primaryKey, text, unique } from 'drizzle-orm/mysql-core';
import type { ARTICLE_FORMATS, ARTICLE_STATUSES, ImageContentType } from '../../../wire/vocabulary.js';
import { createdAt, id, nameAndSlug, ref, str, timestamp, timestamps, uuid } from './mysql.columns.js';

/**
 * The content tables on MySQL / MariaDB: the properties and result types of
 * sqlite/sqlite.content.tables.ts (where the comments are). Character set and
 * collation (utf8mb4_bin, so strings round-trip byte for byte) come from the
 * first, hand-written migration, because drizzle cannot declare them per table.
 */

type Format = (typeof ARTICLE_FORMATS)[number];
type Status = (typeof ARTICLE_STATUSES)[number];

export const sites = mysqlTable('sites', {
  id: id(),
  name: str('name', 255).notNull(),
  baseUrl: str('base_url', 2048).notNull(),
  urlPattern: str('url_pattern', 200),
  previewUrl: str('preview_url', 2048),
  description: text('description'),
  ...timestamps(),
});

export const authors = mysqlTable('authors', {
  id: id(),
  ...nameAndSlug('authors'),
  bio: text('bio'),
  avatarUrl: str('avatar_url', 2048),
  ...timestamps(),
});

export const tags = mysqlTable('tags', { id: id(), ...nameAndSlug('tags'), ...timestamps() });

export const glossaryTerms = mysqlTable('glossary_terms', {
  id: id(),
  ...nameAndSlug('glossary_terms'),
  definition: text('definition').notNull(),
  ...timestamps(),
});

export const redirects = mysqlTable('redirects', {
  id: id(),
  from: str('from_path', 2000).notNull(),
  fromHash: char('from_hash', { length: 64 }).notNull().unique('redirects_from_hash_unique'),
  to: str('to_location', 2000).notNull(),
  status: int('status').notNull(),
  ...timestamps(),
});

export const articles = mysqlTable(
  'articles',
  {
    id: id(),
    title: str('title', 255).notNull(),
    // The body has no length limit in the API; longtext holds up to 4 GB.
    body: longtext('body').notNull(),
    format: str('format', 16).$type<Format>().notNull(),
    status: str('status', 16).$type<Status>().notNull(),
    siteId: uuid('site_id').references(() => sites.id),
    ...timestamps(),
    publishedAt: timestamp('published_at'),
    seo: text('seo'),
    scheduledAt: timestamp('scheduled_at'),
    version: int('version').notNull().default(1),
    slug: str('slug', 200).notNull().default(''),
    slugScope: str('slug_scope', 36).notNull().default(''),
    excerpt: text('excerpt'),
    html: longtext('html'),
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

export const articleAuthors = mysqlTable(
  'article_authors',
  {
    articleId: ref('article_id', () => articles.id, 'cascade'),
    authorId: ref('author_id', () => authors.id, 'restrict'),
    position: int('position').notNull(),
  },
  (t) => [
    primaryKey({ name: 'article_authors_pk', columns: [t.articleId, t.authorId] }),
    index('article_authors_author_id_idx').on(t.authorId),
    index('article_authors_article_id_position_idx').on(t.articleId, t.position),
  ],
);

export const articleTags = mysqlTable(
  'article_tags',
  {
    articleId: ref('article_id', () => articles.id, 'cascade'),
    tagId: ref('tag_id', () => tags.id, 'cascade'),
    position: int('position').notNull(),
  },
  (t) => [
    primaryKey({ name: 'article_tags_pk', columns: [t.articleId, t.tagId] }),
    index('article_tags_tag_id_idx').on(t.tagId),
    index('article_tags_article_id_position_idx').on(t.articleId, t.position),
  ],
);

export const images = mysqlTable(
  'images',
  {
    id: id(),
    articleId: ref('article_id', () => articles.id),
    filename: str('filename', 255).notNull().unique('images_filename_unique'),
    contentType: str('content_type', 64).$type<ImageContentType>().notNull(),
    bytes: int('bytes').notNull(),
    width: int('width').notNull(),
    height: int('height').notNull(),
    sha256: char('sha256', { length: 64 }).notNull(),
    createdAt: createdAt(),
    originalName: str('original_name', 255),
    alt: str('alt', 1000).notNull().default(''),
    caption: str('caption', 2000).notNull().default(''),
  },
  (t) => [index('images_sha256_idx').on(t.sha256), index('images_article_id_id_idx').on(t.articleId, t.id)],
);

export const articleImages = mysqlTable(
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

export const previewTokens = mysqlTable(
  'preview_tokens',
  {
    id: id(),
    articleId: ref('article_id', () => articles.id, 'cascade'),
    tokenHash: char('token_hash', { length: 64 }).notNull().unique('preview_tokens_token_hash_unique'),
    expiresAt: timestamp('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('preview_tokens_article_id_idx').on(t.articleId),
    index('preview_tokens_expires_at_idx').on(t.expiresAt),
  ],
);

export const articleDrafts = mysqlTable(
  'article_drafts',
  {
    articleId: uuid('article_id')
      .primaryKey()
      .references(() => articles.id, { onDelete: 'cascade' }),
    fields: longtext('fields').notNull(),
    version: int('version').notNull(),
    baseVersion: int('base_version').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    publishAt: timestamp('publish_at'),
  },
  (t) => [index('article_drafts_publish_at_idx').on(t.publishAt)],
);

export const articleRevisions = mysqlTable(
  'article_revisions',
  {
    id: id(),
    articleId: ref('article_id', () => articles.id, 'cascade'),
    createdAt: createdAt(),
    actorType: str('actor_type', 16).notNull(),
    actorId: uuid('actor_id'),
    version: int('version').notNull(),
    title: str('title', 255).notNull(),
    fields: longtext('fields').notNull(),
    bytes: int('bytes').notNull(),
  },
  (t) => [index('article_revisions_article_id_id_idx').on(t.articleId, t.id)],
);
