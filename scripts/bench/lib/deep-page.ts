import { getJson } from './load.ts';

/** The parts of a list answer the walk checks. */
interface ArticlePage {
  items: { id: string; status: string }[];
  nextCursor: string | null;
}

export interface DeepPageResult {
  page: number;
  requested: number;
  fullPages: number;
  rowsBefore: number;
  walkSeconds: number;
  note: string | null;
}

/**
 * Finds the deep page by following nextCursor from page 1, and checks the
 * cursor it reached against the one computed from the seeded ids and the
 * cursor format (base64url of the previous page's last id,
 * worker/src/core/shared/pagination.ts). The page asked for, or the deepest
 * full one when the public list is shorter.
 */
export async function walkToDeepPage(
  origin: string,
  { onlineIds, online, size, requested }: { onlineIds: string[]; online: number; size: number; requested: number },
): Promise<{ deepPath: string; result: DeepPageResult }> {
  const fullPages = Math.floor(online / size);
  const deepPage = Math.min(requested, fullPages);
  if (deepPage < 2) throw new Error(`only ${online} online articles: not enough for two pages of ${size}`);
  const t0 = performance.now();
  let cursor: string | null = null;
  for (let page = 1; page < deepPage; page++) {
    const { json }: { json: ArticlePage } = await getJson<ArticlePage>(
      origin,
      `/v1/articles?limit=${size}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    if (json.items.length !== size || !json.nextCursor)
      throw new Error(`page ${page}: ${json.items.length} items, nextCursor ${json.nextCursor}`);
    if (json.items.some((a) => a.status !== 'online'))
      throw new Error(`page ${page} of the public list holds offline articles`);
    cursor = json.nextCursor;
  }
  const walkSeconds = (performance.now() - t0) / 1000;
  const computed = Buffer.from(onlineIds[(deepPage - 1) * size - 1] ?? '').toString('base64url');
  if (computed !== cursor)
    throw new Error(`the cursor reached by walking (${cursor}) is not the computed one (${computed})`);
  const deepPath = `/v1/articles?limit=${size}&cursor=${cursor}`;
  const deep = await getJson<ArticlePage>(origin, deepPath);
  if (deep.json.items[0]?.id !== onlineIds[(deepPage - 1) * size])
    throw new Error(`page ${deepPage} does not start where expected`);
  return {
    deepPath,
    result: {
      page: deepPage,
      requested,
      fullPages,
      rowsBefore: (deepPage - 1) * size,
      walkSeconds,
      note:
        deepPage < requested
          ? `the public list has ${fullPages.toLocaleString('en')} full pages of ${size} (${online.toLocaleString('en')} online articles); page ${deepPage.toLocaleString('en')} is the deepest and its rows are the oldest in the table`
          : null,
    },
  };
}
