import type { Row } from '../../adapters/db/rows.js';

/** The glossary: what the core needs from storage. */

/** A term is its row (id, name, unique slug, definition, timestamps): the dialects' content tables state the fields. */
export type Term = Row<'glossaryTerms'>;

export type TermPatch = Partial<Pick<Term, 'name' | 'slug' | 'definition'>>;

export interface GlossaryRepository {
  /** A slug in use → DomainError('conflict'). */
  create(term: Term): Promise<void>;
  /** Null when unknown (or the id is malformed). */
  findById(id: string): Promise<Term | null>;
  /** Null when no term has this slug. */
  findBySlug(slug: string): Promise<Term | null>;
  /** Newest first (id descending), keyset paged. */
  list(query: { limit: number; beforeId?: string }): Promise<Term[]>;
  /** Returns the updated term, or null when unknown. A slug in use → DomainError('conflict'). */
  update(id: string, patch: TermPatch, now: Date): Promise<Term | null>;
  /** False when unknown. */
  delete(id: string): Promise<boolean>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    glossary: GlossaryRepository;
  }
}
