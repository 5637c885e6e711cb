import type { Rows } from '../../ports/unit-of-work.js';
import type { ArticleFormat } from './article.schema.js';
import type { SeoDto } from './seo.schema.js';

export { ARTICLE_FIELD_KEYS } from './article-draft.schema.js';

/** Drafts and revisions of articles: what the core needs from storage. */

/** An article's own fields, as a draft or a revision holds them. */
export interface ArticleFields {
  title: string;
  body: string;
  format: ArticleFormat;
  siteId: string | null;
  authorIds: string[];
  tagIds: string[];
  seo: SeoDto;
  slug: string;
  excerpt: string | null;
  featureImageId: string | null;
}

/** The one pending draft of an article. */
export interface ArticleDraft extends ArticleFields {
  articleId: string;
  /** 1 when made, raised by one on every write: its ETag. */
  version: number;
  /** The article's version when the draft was made. */
  baseVersion: number;
  updatedAt: Date;
  /** When the scheduler makes it live; null: not scheduled. A write of the draft keeps it. */
  publishAt: Date | null;
}

export type RevisionActorType = 'user' | 'apiKey' | 'system';

/** What an online article was after one of its publications or updates. */
export interface ArticleRevision extends ArticleFields {
  id: string;
  articleId: string;
  createdAt: Date;
  actorType: RevisionActorType;
  actorId: string | null;
  /** The article's version it records. */
  version: number;
  /** The UTF-8 size of its fields as stored. */
  bytes: number;
}

export type RevisionSummary = Pick<
  ArticleRevision,
  'id' | 'createdAt' | 'actorType' | 'actorId' | 'version' | 'title' | 'bytes'
>;

/** What a draft write did: written, lost to another write of the draft, or the article is gone. */
export type DraftWrite = 'written' | 'stale' | 'gone';

export interface ArticleDraftsRepository {
  find(articleId: string): Promise<ArticleDraft | null>;
  /**
   * Stores `draft` in place of the draft at version `replaces` (null: while
   * there is none). Payload too large for the row → DomainError('payload_too_large').
   */
  save(draft: ArticleDraft, replaces: number | null): Promise<DraftWrite>;
  /** False when there was none. */
  delete(articleId: string): Promise<boolean>;
  /** Sets or clears when the scheduler makes the draft live; false when there is no draft. */
  schedule(articleId: string, publishAt: Date | null): Promise<boolean>;
  /** Drafts whose time has come, soonest first: the article and the draft's version. */
  due(now: Date, limit: number): Promise<{ articleId: string; version: number }[]>;
  /** Deletes the draft while it is at `version`, as part of another write of the article (its unit). */
  dropRows(articleId: string, version: number): Rows;
}

export interface ArticleRevisionsRepository {
  /** The revision as a row of an article write's unit (inserted only when the write happens). */
  rows(revision: ArticleRevision): Rows;
  /** Newest first. */
  list(articleId: string): Promise<RevisionSummary[]>;
  find(articleId: string, id: string): Promise<ArticleRevision | null>;
  /** Drops the oldest revisions of an article beyond `maxCount` or `maxBytes` in all (the newest always stays); how many went. */
  trim(articleId: string, maxCount: number, maxBytes: number): Promise<number>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    articleDrafts: ArticleDraftsRepository;
    articleRevisions: ArticleRevisionsRepository;
  }
}
