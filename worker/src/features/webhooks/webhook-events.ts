/** Fields left out of article events: the large ones, which a receiver reads from the API when it needs them. */
const HEAVY = new Set(['body', 'html', 'images']);

/**
 * What `article.*` events carry as `data`: the article as `GET
 * /v1/articles/{id}` answers it, without `body`, `html` and `images` (an
 * article may be megabytes; a receiver that wants them fetches the article).
 */
export function articleEventData(article: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(article).filter(([key]) => !HEAVY.has(key)));
}
