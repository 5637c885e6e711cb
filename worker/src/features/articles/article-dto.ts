import { plainExcerpt } from '../../core/content/excerpt.js';
import { renderArticleHtml } from '../../core/content/render.js';
import { IMAGE_URL_PREFIX, type LinkBase, toImageDto, toPicture } from '../media/image-dto.js';
import type { Image } from '../media/images.port.js';
import type { TagRef } from '../tags/tags.schema.js';
import type { ArticleDto, ArticleListItemDto } from './article.schema.js';
import type { Article } from './articles.port.js';

/** The body as stored html: what every write keeps in the `html` column (links to our files stay root-relative). */
export const renderStoredHtml = (a: Pick<Article, 'body' | 'format'>): string => renderArticleHtml(a.body, a.format);

// The sanitiser writes every attribute as name="value" with `"` escaped in
// values and in text (sanitize-html.ts), so `␠src="` and `␠href="` occur only
// where an attribute starts: one linear replace makes links to our files
// absolute. Other root-relative links are left alone: on the site's own
// origin `/about` means the site's page, not ours.
const OUR_FILES = new RegExp(` (src|href)="${IMAGE_URL_PREFIX}`, 'g');

/** Stored html with its links to our uploaded images made absolute. */
export function absoluteHtml(html: string, origin: string): string {
  return origin === '' ? html : html.replace(OUR_FILES, (_m, name: string) => ` ${name}="${origin}${IMAGE_URL_PREFIX}`);
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
    ...(withHtml && { html: absoluteHtml(a.html ?? renderStoredHtml(a), base.origin) }),
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
