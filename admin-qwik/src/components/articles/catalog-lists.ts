import type { AuthorDto, SiteDto } from '../../lib/catalog';
import { loadAll } from '../../lib/load-all';
import { call } from '../../lib/typed-api';

/** The sites and authors the editor offers. */
export async function loadCatalog(): Promise<{ sites: SiteDto[]; authors: AuthorDto[]; error: string | null }> {
  const [sites, authors] = await Promise.all([
    loadAll((cursor) => call('get', '/v1/sites', { query: { limit: 100, ...(cursor && { cursor }) } })),
    loadAll((cursor) => call('get', '/v1/authors', { query: { limit: 100, ...(cursor && { cursor }) } })),
  ]);
  return { sites: sites.items, authors: authors.items, error: sites.error ?? authors.error };
}
