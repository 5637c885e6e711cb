import '../zod-csp';
import { siteArticleUrl } from '../../../../worker/src/features/sites/article-url';
import { UrlPatternSchema } from '../../../../worker/src/features/sites/site.schema';
import { isHttpUrl } from '../../../../worker/src/wire/common.schema';

/** The slug the Sites form's link preview is shown with. */
export const PREVIEW_SLUG = 'my-article';

/**
 * The Sites form's note under the URL pattern: the link an article gets from
 * the pattern and base URL as typed (the server's own function makes it, so
 * the preview is what feeds and sitemaps will say). The site's catalogue
 * entry (lib/catalog.ts) loads it with the form.
 */
export function siteLinkNotes(values: Record<string, unknown>): Record<string, string> {
  const text = (key: string) => (typeof values[key] === 'string' ? (values[key] as string).trim() : '');
  const pattern = text('urlPattern') || null;
  if (pattern !== null && !UrlPatternSchema.safeParse(pattern).success) {
    return { urlPattern: 'The link preview shows once the pattern is a path with {slug}.' };
  }
  const base = text('baseUrl');
  const said = `An article with the slug ${PREVIEW_SLUG} is linked as`;
  return {
    urlPattern: isHttpUrl(base)
      ? `${said} ${siteArticleUrl(base, pattern, PREVIEW_SLUG)}`
      : `${said} ${siteArticleUrl('', pattern, PREVIEW_SLUG)} under the base URL.`,
  };
}
