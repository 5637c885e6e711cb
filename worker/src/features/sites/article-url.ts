/**
 * Where an article lives on its site, in one place: the feeds and sitemaps
 * link by it, and the admin's Sites form previews a link with it.
 */

/** The pattern a site without one uses. */
export const DEFAULT_URL_PATTERN = '/{slug}';

/** `s` without its trailing slashes, in one pass (`/\/+$/` retries from every slash: quadratic on a long run). */
export function withoutTrailingSlashes(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 47) end--;
  return s.slice(0, end);
}

/** `{baseUrl}{urlPattern}` with the slug put in (`/{slug}` without a pattern). */
export function siteArticleUrl(baseUrl: string, urlPattern: string | null, slug: string): string {
  // Slugs and patterns are URL-safe by their rules: nothing to escape.
  const path = (urlPattern ?? DEFAULT_URL_PATTERN).replace('{slug}', slug);
  return `${withoutTrailingSlashes(baseUrl)}${path}`;
}
