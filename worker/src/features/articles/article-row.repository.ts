import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import type { Article } from './articles.port.js';
import { EMPTY_SEO, type SeoDto } from './seo.schema.js';

// An `articles` row and the entity: the columns the repository does not store as they are.

type ArticleRow = SqlKit['tables']['articles']['$inferSelect'];
/** A row as lists read it: without `html` unless asked for. */
type ListedRow = Omit<ArticleRow, 'html'> & { html?: string | null };

export const toArticle = ({ slugScope: _, ...row }: ListedRow, authorIds: string[], tagIds: string[]): Article => ({
  ...row,
  html: row.html ?? null,
  authorIds,
  tagIds,
  seo: parseSeo(row.seo),
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
