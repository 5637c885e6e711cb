import { describe, expect, it } from 'vitest';
import { mergeSeo, seoValues, showSeoValue } from '../../admin-qwik/src/lib/seo-merge.js';

const base = seoValues({ metaTitle: 'T', metaDescription: 'D', canonicalUrl: null, ogImage: null, noindex: false });

describe('admin SEO merge (the editor’s mergeFields, field by field)', () => {
  it('reads stored records and form bodies alike (null and absent are empty, text trimmed)', () => {
    expect(seoValues({ metaTitle: ' T ', noindex: true })).toEqual({
      metaTitle: 'T',
      metaDescription: '',
      canonicalUrl: '',
      ogImage: '',
      noindex: true,
    });
  });

  it('takes what only they changed, keeps what only this panel changed, and names what both changed', () => {
    const mine = { ...base, metaTitle: 'Mine', canonicalUrl: 'https://m.example/' };
    const theirs = { ...base, metaTitle: 'Theirs', metaDescription: 'Their description', noindex: true };
    const { merged, conflicts } = mergeSeo(base, mine, theirs);
    expect(conflicts).toEqual(['metaTitle']);
    expect(merged).toEqual({
      metaTitle: 'Mine',
      metaDescription: 'Their description',
      canonicalUrl: 'https://m.example/',
      ogImage: '',
      noindex: true,
    });
  });

  it('sees no conflict where both made the same change, or nobody changed anything', () => {
    const same = { ...base, metaTitle: 'Same' };
    expect(mergeSeo(base, same, same)).toEqual({ merged: same, conflicts: [] });
    expect(mergeSeo(base, base, base)).toEqual({ merged: base, conflicts: [] });
  });

  it('shows each value in words', () => {
    expect(showSeoValue(base, 'canonicalUrl')).toBe('(empty)');
    expect(showSeoValue({ ...base, noindex: true }, 'noindex')).toBe('Yes (noindex)');
  });
});
