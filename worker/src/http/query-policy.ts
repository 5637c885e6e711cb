/**
 * Campaign tags (`utm_source`, `utm_medium`, …) that newsletters and
 * analytics add to links: a route ignores them, and caches key an answer
 * without them, so a tagged link reads the same answer as the plain one.
 * Every other undeclared parameter stays a 400 (route.ts).
 */
export const isCampaignTag = (name: string): boolean => name.startsWith('utm_');

const TAGGED = /[?&]utm_/;

/** `url` without its campaign tags; the same string when it has none (the common case costs one regex test). */
export function withoutCampaignTags(url: string): string {
  if (!TAGGED.test(url)) return url;
  const start = url.indexOf('?');
  const kept = url
    .slice(start + 1)
    .split('&')
    .filter((pair) => !isCampaignTag(pair));
  return kept.length === 0 ? url.slice(0, start) : `${url.slice(0, start)}?${kept.join('&')}`;
}
