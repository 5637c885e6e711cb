import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import type { Article } from './articles.port.js';
import { EMPTY_SEO, type SeoDto } from './seo.schema.js';

// An `articles` row and the entity: the columns the repository does not store as they are.

type ArticleRow = SqlKit['tables']['articles']['$inferSelect'];
/** A row as lists read it: without `html` unless asked for. */
export type ListedRow = Omit<ArticleRow, 'html'> & { html?: string | null };

/**
 * The entity of a row, named field by field rather than spread: drizzle
 * builds a row by keyed stores, which leaves an object of this many fields
 * in V8's dictionary mode, and copying one by rest and spread cost 10 µs
 * (in a loop) to 19 µs (in the server) an article read, as much as the
 * rest of its mapping (docs/benchmarks.md). Typed as `Article`, so a column
 * added to the table and not here fails the build.
 */
export const toArticle = (row: ListedRow, authorIds: string[], tagIds: string[]): Article => ({
  id: row.id,
  title: row.title,
  body: row.body,
  format: row.format,
  status: row.status,
  siteId: row.siteId,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  publishedAt: row.publishedAt,
  seo: parseSeo(row.seo),
  scheduledAt: row.scheduledAt,
  version: row.version,
  slug: row.slug,
  excerpt: row.excerpt,
  html: row.html ?? null,
  featureImageId: row.featureImageId,
  authorIds,
  tagIds,
});

/** Articles without a site share the scope ''. */
export const scopeOf = (siteId: string | null): string => siteId ?? '';

/** The stored JSON, read defensively: a row written before SEO existed (null) or damaged by hand reads as empty. */
function parseSeo(text: string | null): SeoDto {
  if (text === null) return { ...EMPTY_SEO };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return { ...EMPTY_SEO };
    const record = value as Record<string, unknown>;
    const str = (key: string) => (typeof record[key] === 'string' ? (record[key] as string) : null);
    return {
      metaTitle: str('metaTitle'),
      metaDescription: str('metaDescription'),
      canonicalUrl: str('canonicalUrl'),
      ogImage: str('ogImage'),
      noindex: record.noindex === true,
    };
  } catch {
    return { ...EMPTY_SEO };
  }
}

export const seoText = (seo: SeoDto): string => JSON.stringify(seo);
