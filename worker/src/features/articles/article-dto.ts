import { plainExcerpt } from '../../core/content/excerpt.js';
import { readingTimeMinutes } from '../../core/content/reading-time.js';
import type { LinkBase } from '../../wire/links.js';
import { IMAGE_URL_PREFIX, type Image, toImageDto, toPicture } from '../media/index.js';
import type { TagRef } from '../tags/tags.schema.js';
import type { ArticleDto, ArticleListItemDto } from './article.schema.js';
import type { Article } from './articles.port.js';

// Stored html keeps links to our files root-relative (article-html.ts renders
// it once, on the write). The sanitiser writes every attribute as name="value"
// with `"` escaped in values and in text (sanitize-html.ts), so `="/static/…`
// after ` src` or ` href` occurs only where such a link starts. Other
// root-relative links are left alone: on the site's own origin `/about`
// means the site's page, not ours.
const OUR_FILES = `="${IMAGE_URL_PREFIX}`;

/**
 * Stored html with its links to our uploaded images made absolute: no
 * parse, no render, only the places found by indexOf joined with the
 * origin (V8 joins strings without copying them), so a read costs the same
 * whatever the body held. Two linear passes: `src` and `href`, then the
 * candidates of each `srcset` (its first after `="`, the others after `, `).
 */
export function absoluteHtml(html: string, origin: string): string {
  if (origin === '') return html;
  let out = '';
  let from = 0;
  for (let at = html.indexOf(OUR_FILES); at !== -1; at = html.indexOf(OUR_FILES, at + OUR_FILES.length)) {
    if (!html.endsWith(' src', at) && !html.endsWith(' href', at)) continue;
    out += html.slice(from, at + 2) + origin;
    from = at + 2;
  }
  return absoluteSrcsets(from === 0 ? html : out + html.slice(from), origin);
}

const SRCSET = ' srcset="';

function absoluteSrcsets(html: string, origin: string): string {
  let out = '';
  let from = 0;
  for (let at = html.indexOf(SRCSET); at !== -1; ) {
    const start = at + SRCSET.length;
    // Quotes in values are escaped: the next one ends the attribute.
    const end = html.indexOf('"', start);
    if (end === -1) break;
    const value = html.slice(start, end);
    const joined = value
      .split(', ')
      .map((candidate) => (candidate.startsWith(IMAGE_URL_PREFIX) ? origin + candidate : candidate))
      .join(', ');
    if (joined !== value) {
      out += html.slice(from, start) + joined;
      from = end;
    }
    at = html.indexOf(SRCSET, end + 1);
  }
  return from === 0 ? html : out + html.slice(from);
}

/** Domain → wire, without `html`: a list item unless asked for it. */
export function toArticleListItem(
  a: Article,
  images: Image[],
  tags: ReadonlyMap<string, TagRef>,
  base: LinkBase,
  withHtml: boolean,
): ArticleListItemDto {
  const feature = a.featureImageId === null ? undefined : images.find((i) => i.id === a.featureImageId);
  return {
    id: a.id,
    title: a.title,
    slug: a.slug,
    body: a.body,
    format: a.format,
    excerpt: a.excerpt ?? plainExcerpt(a.body, a.format),
    // The service fills a row's missing html before it gets here (article-html.ts).
    ...(withHtml && { html: absoluteHtml(a.html ?? '', base.origin) }),
    status: a.status,
    siteId: a.siteId,
    authorIds: a.authorIds,
    // Every known tag; one deleted meanwhile is left out.
    tags: a.tagIds.flatMap((id) => tags.get(id) ?? []),
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
    publishedAt: a.publishedAt ? a.publishedAt.toISOString() : null,
    scheduledAt: a.scheduledAt ? a.scheduledAt.toISOString() : null,
    seo: { ...a.seo },
    version: a.version,
    images: images.map((i) => toImageDto(i, base)),
    // An image no longer linked to the article (deleted, or unlinked by the purge) is no feature image.
    featureImageId: feature ? feature.id : null,
    featureImage: feature ? toPicture(feature, base) : null,
    readingTimeMinutes: readingTimeMinutes(a.body),
  };
}

/** Domain → wire: one article's answer, `html` included. */
export function toArticleDto(
  a: Article,
  images: Image[],
  tags: ReadonlyMap<string, TagRef>,
  base: LinkBase,
): ArticleDto {
  return toArticleListItem(a, images, tags, base, true) as ArticleDto;
}
