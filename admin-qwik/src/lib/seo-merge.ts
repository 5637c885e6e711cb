/** The SEO panel's fields as the form holds them: text ('' for none) and the noindex box. */
export interface SeoValues {
  metaTitle: string;
  metaDescription: string;
  canonicalUrl: string;
  ogImage: string;
  noindex: boolean;
}
export type SeoField = keyof SeoValues;

export const SEO_FIELD_LABELS: Record<SeoField, string> = {
  metaTitle: 'Meta title',
  metaDescription: 'Meta description',
  canonicalUrl: 'Canonical URL',
  ogImage: 'Social image',
  noindex: 'Ask search engines not to index',
};
const FIELDS = Object.keys(SEO_FIELD_LABELS) as SeoField[];

/** A stored record or a PUT body in the form's terms (null and absent are ''; text compared trimmed, as stored). */
export function seoValues(seo: Partial<Record<SeoField, string | boolean | null | undefined>>): SeoValues {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  return {
    metaTitle: text(seo.metaTitle),
    metaDescription: text(seo.metaDescription),
    canonicalUrl: text(seo.canonicalUrl),
    ogImage: text(seo.ogImage),
    noindex: seo.noindex === true,
  };
}

/** How a field reads in the both-versions view (conflict-panel.tsx). */
export function showSeoValue(values: SeoValues, field: SeoField): string {
  if (field === 'noindex') return values.noindex ? 'Yes (noindex)' : 'No';
  return values[field] || '(empty)';
}

/**
 * After a 412: three-way merge of the editor's SEO values (`mine`, edited
 * from `base`) with the version saved meanwhile (`theirs`), field by field
 * (article-fields.ts, mergeFields): a field only they changed takes theirs,
 * one only this editor changed keeps mine; one both changed differently is
 * a conflict, left as mine for the editor to decide.
 */
export function mergeSeo(
  base: SeoValues,
  mine: SeoValues,
  theirs: SeoValues,
): { merged: SeoValues; conflicts: SeoField[] } {
  const merged: SeoValues = { ...mine };
  const conflicts: SeoField[] = [];
  for (const f of FIELDS) {
    const mineChanged = mine[f] !== base[f];
    const theirsChanged = theirs[f] !== base[f];
    if (theirsChanged && !mineChanged) (merged as unknown as Record<SeoField, unknown>)[f] = theirs[f];
    else if (theirsChanged && mineChanged && mine[f] !== theirs[f]) conflicts.push(f);
  }
  return { merged, conflicts };
}
