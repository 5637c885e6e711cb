import type { Row } from '../../adapters/db/rows.js';

/** Authors: what the core needs from storage. */

/** An author is its row (name, a slug unique across authors, bio, avatar URL, timestamps). */
export type Author = Row<'authors'>;

export type AuthorPatch = Partial<Pick<Author, 'name' | 'slug' | 'bio' | 'avatarUrl'>>;

export interface AuthorsRepository {
  /** A taken slug → DomainError('conflict'). */
  create(author: Author): Promise<void>;
  findById(id: string): Promise<Author | null>;
  /** Null when no author has this slug. */
  findBySlug(slug: string): Promise<Author | null>;
  /** The authors with these ids, in one read per chunk (never one per id); unknown and malformed ids are left out. */
  findByIds(ids: readonly string[]): Promise<Map<string, Author>>;
  /** Newest first (id descending), keyset paged. */
  list(query: { limit: number; beforeId?: string }): Promise<Author[]>;
  /** Returns the updated author, or null when unknown. A taken slug → DomainError('conflict'). */
  update(id: string, patch: AuthorPatch, now: Date): Promise<Author | null>;
  /** False when unknown. An author that articles use → DomainError('conflict'); nothing is deleted. */
  delete(id: string): Promise<boolean>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    authors: AuthorsRepository;
  }
}
