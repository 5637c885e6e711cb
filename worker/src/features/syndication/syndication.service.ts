import type { Actor } from '../../auth/actor.js';
import { canReadOffline } from '../../auth/policy.js';
import { EXCERPT_LENGTH, plainExcerpt } from '../../core/content/excerpt.js';
import { notFound } from '../../core/domain/errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Article } from '../articles/index.js';
import { type Image, imageUrl } from '../media/index.js';
import { type Site, siteArticleUrl, withoutTrailingSlashes } from '../sites/index.js';
import type { StructuredDataDto } from './syndication.schema.js';
import { rfc822, xmlText } from './xml.js';

export interface SyndicationDeps {
  repos: Repositories;
  /** Base of our own URLs (og images uploaded here). */
  publicUrl: string;
}

/** The sitemap protocol's limit per file. */
export const SITEMAP_MAX_URLS = 50_000;
const FEED_ITEMS = 50;
const PAGE = 1000;

/** Where an article lives on its site: its canonical URL, else `{baseUrl}{urlPattern}` with its slug (`/{slug}` by default). */
export function articleUrl(site: Site | null, article: Article): string | null {
  if (article.seo.canonicalUrl) return article.seo.canonicalUrl;
  if (!site) return null;
  return siteArticleUrl(site.baseUrl, site.urlPattern, article.slug);
}

/**
 * What feeds and page heads describe an article with: the curated text
 * first (the SEO description, then the hand-written excerpt), else plain
 * text from the html the write rendered (so a table is its cells, not its
 * Markdown rules), else from the body for a row whose html has no room.
 */
export function descriptionOf(article: Article, max: number): string {
  if (article.seo.metaDescription) return article.seo.metaDescription;
  if (article.excerpt && article.excerpt.trim() !== '') return article.excerpt;
  return article.html ? plainExcerpt(article.html, 'html', max) : plainExcerpt(article.body, article.format, max);
}

/** The article's feature image, while it is still one of the images it shows. */
const featureOf = (article: Article, images: readonly Image[]): Image | undefined =>
  article.featureImageId === null ? undefined : images.find((i) => i.id === article.featureImageId);

/**
 * Sitemaps, RSS feeds and Open Graph / JSON-LD data for the front ends
 * that render our sites: built from online articles only, and a `noindex`
 * article is left out of sitemaps and marked so for crawlers.
 */
export function createSyndicationService({ repos, publicUrl }: SyndicationDeps) {
  const absolute = (url: string | null) => (url?.startsWith('/') ? `${withoutTrailingSlashes(publicUrl)}${url}` : url);
  const links = { origin: withoutTrailingSlashes(publicUrl), widths: [] };

  async function site(id: string): Promise<Site> {
    const found = await repos.sites.findById(id);
    if (!found) throw notFound();
    return found;
  }

  async function* online(siteId: string, max: number, withHtml = false): AsyncGenerator<Article> {
    let beforeId: string | undefined;
    for (let seen = 0; seen < max; ) {
      const want = Math.min(PAGE, max - seen);
      const rows = await repos.articles.list({
        status: 'online',
        siteId,
        limit: want,
        withHtml,
        ...(beforeId && { beforeId }),
      });
      yield* rows;
      seen += rows.length;
      if (rows.length < want) return;
      beforeId = rows[rows.length - 1]!.id;
    }
  }

  return {
    async sitemap(siteId: string): Promise<string> {
      const s = await site(siteId);
      const urls: string[] = [];
      for await (const article of online(s.id, SITEMAP_MAX_URLS)) {
        if (article.seo.noindex) continue;
        const loc = articleUrl(s, article)!;
        urls.push(`<url><loc>${xmlText(loc)}</loc><lastmod>${article.updatedAt.toISOString()}</lastmod></url>`);
      }
      return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
    },

    async feed(siteId: string): Promise<string> {
      const s = await site(siteId);
      const items: string[] = [];
      let newest: Date | null = null;
      const articles: Article[] = [];
      for await (const a of online(s.id, FEED_ITEMS, true)) articles.push(a);
      // One read for the feature images of every item.
      const images = await repos.images.listForArticles(articles.filter((a) => a.featureImageId).map((a) => a.id));
      for (const a of articles) {
        const published = a.publishedAt ?? a.updatedAt;
        if (!newest || published > newest) newest = published;
        const feature = featureOf(a, images.get(a.id) ?? []);
        items.push(
          [
            '<item>',
            `<title>${xmlText(a.seo.metaTitle ?? a.title)}</title>`,
            `<link>${xmlText(articleUrl(s, a)!)}</link>`,
            `<guid isPermaLink="false">${a.id}</guid>`,
            `<pubDate>${rfc822(published)}</pubDate>`,
            `<description>${xmlText(descriptionOf(a, EXCERPT_LENGTH))}</description>`,
            ...(feature
              ? [
                  `<enclosure url="${xmlText(imageUrl(feature, links))}" length="${feature.bytes}" type="${feature.contentType}"/>`,
                ]
              : []),
            '</item>',
          ].join(''),
        );
      }
      return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<rss version="2.0"><channel>',
        `<title>${xmlText(s.name)}</title>`,
        `<link>${xmlText(s.baseUrl)}</link>`,
        `<description>${xmlText(s.description ?? s.name)}</description>`,
        ...(newest ? [`<lastBuildDate>${rfc822(newest)}</lastBuildDate>`] : []),
        ...items,
        '</channel></rss>',
        '',
      ].join('\n');
    },

    /** What a front end puts in the page head: Open Graph properties, JSON-LD, robots. */
    async structuredData(actor: Actor, articleId: string): Promise<StructuredDataDto> {
      const article = await repos.articles.findById(articleId);
      if (!article || (article.status === 'offline' && !canReadOffline(actor))) throw notFound();
      const s = article.siteId ? await repos.sites.findById(article.siteId) : null;
      const authors = (await Promise.all(article.authorIds.map((id) => repos.authors.findById(id)))).filter(
        (a) => a !== null,
      );
      const title = article.seo.metaTitle ?? article.title;
      const description = descriptionOf(article, 200);
      const url = articleUrl(s, article);
      const feature =
        article.featureImageId === null
          ? undefined
          : featureOf(article, (await repos.images.listForArticles([article.id])).get(article.id) ?? []);
      // The SEO record's own og image first, else the feature image (with its size and alt text).
      const image = absolute(article.seo.ogImage) ?? (feature ? imageUrl(feature, links) : null);
      const featureShown = feature !== undefined && article.seo.ogImage === null;
      const published = article.publishedAt?.toISOString() ?? null;
      const modified = article.updatedAt.toISOString();
      const jsonLd = {
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline: title,
        description,
        ...(url && { url, mainEntityOfPage: url }),
        ...(image && { image: [image] }),
        ...(published && { datePublished: published }),
        dateModified: modified,
        author: authors.map((a) => ({ '@type': 'Person', name: a.name, ...(a.avatarUrl && { image: a.avatarUrl }) })),
        ...(s && { publisher: { '@type': 'Organization', name: s.name, url: s.baseUrl } }),
      };
      return {
        robots: article.seo.noindex ? 'noindex' : 'index, follow',
        canonicalUrl: url,
        openGraph: {
          'og:type': 'article',
          'og:title': title,
          'og:description': description,
          ...(url && { 'og:url': url }),
          ...(image && { 'og:image': image }),
          ...(featureShown && {
            'og:image:width': String(feature.width),
            'og:image:height': String(feature.height),
            ...(feature.alt && { 'og:image:alt': feature.alt }),
          }),
          ...(s && { 'og:site_name': s.name }),
          ...(published && { 'article:published_time': published }),
          'article:modified_time': modified,
        },
        jsonLd,
        // Ready for <script type="application/ld+json">: a title holding
        // "</script>" cannot end the element early.
        jsonLdText: JSON.stringify(jsonLd).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026'),
      };
    },
  };
}

export type SyndicationService = ReturnType<typeof createSyndicationService>;
