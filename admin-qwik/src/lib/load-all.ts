import type { Result } from './result';

/** Every item of a paged list (sites, authors: small catalogues), up to `max`; `page` reads one page. */
export async function loadAll<T>(
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
