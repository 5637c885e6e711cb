import type { Row } from '../../adapters/db/rows.js';

/** Sites: what the core needs from storage. */

/** A site is its row; the tables say what `urlPattern` and `previewUrl` hold. */
export type Site = Row<'sites'>;

export type SitePatch = Partial<Pick<Site, 'name' | 'baseUrl' | 'description' | 'urlPattern' | 'previewUrl'>>;

export interface SitesRepository {
  create(site: Site): Promise<void>;
  /** Null when unknown (or the id is malformed). */
  findById(id: string): Promise<Site | null>;
  /** Newest first (id descending), keyset paged. */
  list(query: { limit: number; beforeId?: string }): Promise<Site[]>;
  /** Returns the updated site, or null when unknown. */
  update(id: string, patch: SitePatch, now: Date): Promise<Site | null>;
  /** False when unknown. A site that articles use → DomainError('conflict'); nothing is deleted. */
  delete(id: string): Promise<boolean>;
}

declare module '../../ports/repositories.js' {
  interface Repositories {
    sites: SitesRepository;
  }
}
