import type { Row } from '../../adapters/db/rows.js';
import type { TagRef } from './tags.schema.js';

/** Tags: what the core needs from storage. */

/** A tag is its row (id, name, unique slug, timestamps): the dialects' content tables state the fields. */
export type Tag = Row<'tags'>;

export type TagPatch = Partial<Pick<Tag, 'name' | 'slug'>>;

export interface TagsRepository {
  /** A slug in use → DomainError('conflict'). */
  create(tag: Tag): Promise<void>;
  /** Null when unknown (or the id is malformed). */
  findById(id: string): Promise<Tag | null>;
  /** Null when no tag has this slug. */
  findBySlug(slug: string): Promise<Tag | null>;
  /** Newest first (id descending), keyset paged. */
  list(query: { limit: number; beforeId?: string }): Promise<Tag[]>;
  /** Returns the updated tag, or null when unknown. A slug in use → DomainError('conflict'). */
  update(id: string, patch: TagPatch, now: Date): Promise<Tag | null>;
  /** False when unknown. The tag's links to articles go with it. */
  delete(id: string): Promise<boolean>;
  /** The tags with these ids, by id, in one read per 90 ids (articles name theirs by id). Unknown ids are left out. */
  refsByIds(ids: readonly string[]): Promise<Map<string, TagRef>>;
  /** One article's tags in its order, read by the article's id (so it can run beside the article's own read). */
  refsOfArticle(articleId: string): Promise<TagRef[]>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    tags: TagsRepository;
  }
}
