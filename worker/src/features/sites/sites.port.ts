/** Sites: what the core needs from storage. */

export interface Site {
  id: string;
  name: string;
  baseUrl: string;
  description: string | null;
  /** Where an article lives under `baseUrl`: `/blog/{slug}`; null: `/{slug}`. */
  urlPattern: string | null;
  /** Where preview links of its articles point, holding `{token}`; null: the API's own page. */
  previewUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}

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
