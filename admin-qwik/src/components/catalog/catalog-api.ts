import { CATALOGS, type CatalogItem, type CatalogKind } from '../../lib/catalog';
import { call, type Result } from '../../lib/typed-api';

type Page = { items: CatalogItem[]; nextCursor: string | null };

/** The four calls of a catalogue screen, typed by the generated API types of every catalogue route at once. */
export interface CatalogApi {
  list(query: { limit: number; cursor?: string }): Promise<Result<Page>>;
  /** `body` comes from toBody() (lib/catalog-form.ts), checked with the route's own zod schema. */
  create(body: Record<string, unknown>): Promise<Result<CatalogItem>>;
  update(id: string, body: Record<string, unknown>): Promise<Result<CatalogItem>>;
  remove(id: string): Promise<Result<null>>;
}

/**
 * The one cast of the catalogue calls. A body is built from the form's values
 * by field name and checked at run time with the route's own zod schema
 * (toBody), so TypeScript cannot follow it to the route's body type; it is
 * handed to `call` as the body type of the route it goes to.
 */
const checked = <Body>(body: Record<string, unknown>): Body => body as Body;

/** `{ site: … }` → the item, keeping every other outcome as it is; an answer without it is a failure. */
function item(res: Result<Partial<Record<string, CatalogItem>>>, key: string): Result<CatalogItem> {
  if (!res.ok) return res;
  const found = res.data[key];
  if (found) return { ...res, data: found };
  return { ok: false, status: res.status, code: 'error', message: `The answer had no ${key}.`, issues: [] };
}

/** A catalogue's calls, made from its entry's endpoint (`/v1/sites`, `/v1/sites/{id}`) and item key. */
export function catalogApi(kind: CatalogKind): CatalogApi {
  const { endpoint, itemKey } = CATALOGS[kind];
  const one = `${endpoint}/{id}` as const;
  return {
    list: (query) => call('get', endpoint, { query }),
    create: async (body) => item(await call('post', endpoint, { body: checked(body) }), itemKey),
    update: async (id, body) => item(await call('patch', one, { path: { id }, body: checked(body) }), itemKey),
    remove: (id) => call('delete', one, { path: { id } }),
  };
}
