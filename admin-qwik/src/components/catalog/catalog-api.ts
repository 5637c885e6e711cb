import type { CatalogItem, CatalogKind } from '../../lib/catalog';
import { type ApiBody, call, type Result } from '../../lib/typed-api';

type Page = { items: CatalogItem[]; nextCursor: string | null };

/** The four calls of a catalogue screen, the same for sites, authors and tags, each typed by its own route. */
export interface CatalogApi {
  list(query: { limit: number; cursor?: string }): Promise<Result<Page>>;
  /** `body` comes from toBody(), checked with the route's own zod schema. */
  create(body: Record<string, unknown>): Promise<Result<CatalogItem>>;
  update(id: string, body: Record<string, unknown>): Promise<Result<CatalogItem>>;
  remove(id: string): Promise<Result<null>>;
}

/** `{ site }` / `{ author }` → the item, keeping every other outcome as it is. */
function item<K extends string, T extends CatalogItem>(key: K, res: Result<Record<K, T>>): Result<CatalogItem> {
  return res.ok ? { ...res, data: res.data[key] } : res;
}

export const CATALOG_API: Record<CatalogKind, CatalogApi> = {
  site: {
    list: (query) => call('get', '/v1/sites', { query }),
    create: async (body) =>
      item('site', await call('post', '/v1/sites', { body: body as ApiBody<'/v1/sites', 'post'> })),
    update: async (id, body) =>
      item(
        'site',
        await call('patch', '/v1/sites/{id}', { path: { id }, body: body as ApiBody<'/v1/sites/{id}', 'patch'> }),
      ),
    remove: (id) => call('delete', '/v1/sites/{id}', { path: { id } }),
  },
  author: {
    list: (query) => call('get', '/v1/authors', { query }),
    create: async (body) =>
      item('author', await call('post', '/v1/authors', { body: body as ApiBody<'/v1/authors', 'post'> })),
    update: async (id, body) =>
      item(
        'author',
        await call('patch', '/v1/authors/{id}', { path: { id }, body: body as ApiBody<'/v1/authors/{id}', 'patch'> }),
      ),
    remove: (id) => call('delete', '/v1/authors/{id}', { path: { id } }),
  },
  tag: {
    list: (query) => call('get', '/v1/tags', { query }),
    create: async (body) => item('tag', await call('post', '/v1/tags', { body: body as ApiBody<'/v1/tags', 'post'> })),
    update: async (id, body) =>
      item(
        'tag',
        await call('patch', '/v1/tags/{id}', { path: { id }, body: body as ApiBody<'/v1/tags/{id}', 'patch'> }),
      ),
    remove: (id) => call('delete', '/v1/tags/{id}', { path: { id } }),
  },
};
