import type { AuthorDto, SiteDto } from '../../lib/catalog';
import { call, type Result } from '../../lib/typed-api';

/** Every item of a paged list (sites, authors: small catalogues), up to `max`; `page` reads one page. */
async function loadAll<T>(
  page: (cursor: string | null) => Promise<Result<{ items: T[]; nextCursor: string | null }>>,
  max = 1000,
): Promise<{ items: T[]; error: string | null }> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const res: Result<{ items: T[]; nextCursor: string | null }> = await page(cursor);
    if (!res.ok) return { items, error: res.message };
    items.push(...res.data.items);
    cursor = res.data.nextCursor;
  } while (cursor && items.length < max);
  return { items, error: null };
}

/** The sites and authors the editor offers. */
export async function loadCatalog(): Promise<{ sites: SiteDto[]; authors: AuthorDto[]; error: string | null }> {
  const [sites, authors] = await Promise.all([
    loadAll((cursor) => call('get', '/v1/sites', { query: { limit: '100', ...(cursor && { cursor }) } })),
    loadAll((cursor) => call('get', '/v1/authors', { query: { limit: '100', ...(cursor && { cursor }) } })),
  ]);
  return { sites: sites.items, authors: authors.items, error: sites.error ?? authors.error };
}
