import type { Row } from '../../adapters/db/rows.js';
import type { Rows } from '../../ports/unit-of-work.js';
import type { Article } from './articles.port.js';

export { ARTICLE_FIELD_KEYS } from './article-draft.schema.js';

/** Drafts and revisions of articles: what the core needs from storage. */

/** An article's own fields, as a draft or a revision holds them (as JSON, in its `fields` column). */
export type ArticleFields = Pick<
  Article,
  'title' | 'body' | 'format' | 'siteId' | 'authorIds' | 'tagIds' | 'seo' | 'slug' | 'excerpt' | 'featureImageId'
>;

/**
 * The one pending draft of an article: its row (`version` its own ETag,
 * `baseVersion` the article's version it was made from, `publishAt` when the
 * scheduler makes it live) with the fields read from their JSON.
 */
export type ArticleDraft = Omit<Row<'articleDrafts'>, 'fields'> & ArticleFields;

export type RevisionActorType = 'user' | 'apiKey' | 'system';

/**
 * What an online article was after one of its publications or updates: its
 * row (`version` the article's version it records, `bytes` the UTF-8 size of
 * its fields as stored) with the fields read from their JSON.
 */
export type ArticleRevision = Omit<Row<'articleRevisions'>, 'fields' | 'actorType'> &
  ArticleFields & { actorType: RevisionActorType };

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
