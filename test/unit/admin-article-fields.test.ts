import { describe, expect, it } from 'vitest';
import {
  type ArticleFields,
  changedFields,
  EMPTY_FIELDS,
  isBlank,
  mergeFields,
  sameFields,
  takeTheirs,
} from '../../admin-qwik/src/lib/article-fields.js';
import { draftOnOffer, restoredDraft } from '../../admin-qwik/src/lib/draft-store.js';
import { seoValues } from '../../admin-qwik/src/lib/seo-merge.js';

const base = { title: 'T', body: 'B', format: 'markdown' as const, siteId: 's1', authorIds: ['a', 'b'] };

/** The editor sends only what changed (a full record on each save reverted others' edits). */
describe('admin article fields', () => {
  it('names only the fields that changed', () => {
    expect(changedFields(base, base)).toEqual({});
    expect(changedFields(base, { ...base, body: 'B2' })).toEqual({ body: 'B2' });
    expect(changedFields(base, { ...base, title: 'T2', authorIds: ['b', 'a'] })).toEqual({
      title: 'T2',
      authorIds: ['b', 'a'],
    });
  });

  it('sends the tags as tagIds when their order or set changed; no tags and an older draft without them are the same', () => {
    const red = { id: 'r', name: 'Red', slug: 'red' };
    const blue = { id: 'b', name: 'Blue', slug: 'blue' };
    const tagged = { ...base, tags: [red, blue] };
    expect(changedFields(tagged, { ...tagged, tags: [blue, red] })).toEqual({ tagIds: ['b', 'r'] });
    expect(changedFields(tagged, { ...tagged, tags: [red, { ...blue, name: 'Renamed' }] })).toEqual({});
    expect(changedFields(tagged, base)).toEqual({ tagIds: [] });
    expect(sameFields(base, { ...base, tags: [] })).toBe(true);
  });

  it('sends a cleared site as null, the API’s "no site"', () => {
    expect(changedFields(base, { ...base, siteId: '' })).toEqual({ siteId: null });
  });

  it('tells an untouched new article from a draft', () => {
    expect(isBlank(EMPTY_FIELDS)).toBe(true);
    expect(isBlank({ ...EMPTY_FIELDS, body: ' ' })).toBe(false);
    expect(sameFields(base, { ...base, authorIds: ['a', 'b'] })).toBe(true);
  });
});

describe('admin article fields after a stale save (412)', () => {
  it('takes what only they changed, keeps what only I changed', () => {
    const theirs = { ...base, title: 'Their title' };
    const mine = { ...base, body: 'My body' };
    expect(mergeFields(base, mine, theirs)).toEqual({
      merged: { ...base, title: 'Their title', body: 'My body' },
      conflicts: [],
    });
  });

  it('merges tags like any field: theirs when only they changed them, a conflict when both did differently', () => {
    const red = { id: 'r', name: 'Red', slug: 'red' };
    const blue = { id: 'b', name: 'Blue', slug: 'blue' };
    const tagged = { ...base, tags: [red] };
    expect(mergeFields(tagged, { ...tagged, body: 'Mine' }, { ...tagged, tags: [red, blue] })).toEqual({
      merged: { ...tagged, body: 'Mine', tags: [red, blue] },
      conflicts: [],
    });
    const mine = { ...tagged, tags: [blue] };
    expect(mergeFields(tagged, mine, { ...tagged, tags: [] }).conflicts).toEqual(['tags']);
  });

  it('merges the SEO record field by field: theirs where only they changed one, a conflict per field both changed', () => {
    const seo = seoValues({ metaTitle: 'T', metaDescription: 'D' });
    const withSeo = { ...base, seo };
    const mine = { ...withSeo, seo: { ...seo, metaTitle: 'Mine', canonicalUrl: 'https://m.example/' } };
    const theirs = { ...withSeo, seo: { ...seo, metaTitle: 'Theirs', metaDescription: 'Their description' } };
    const { merged, conflicts } = mergeFields(withSeo, mine, theirs);
    expect(conflicts).toEqual(['seo.metaTitle']);
    expect(merged.seo).toEqual({
      ...seo,
      metaTitle: 'Mine',
      metaDescription: 'Their description',
      canonicalUrl: 'https://m.example/',
    });
    // Taking theirs for the contested field keeps this editor's other SEO change.
    expect(takeTheirs(merged, theirs, conflicts).seo).toEqual({ ...merged.seo, metaTitle: 'Theirs' });
    // Only they changed SEO: theirs, whole; an older local draft without SEO changes none.
    expect(mergeFields(withSeo, { ...withSeo, body: 'Mine' }, theirs).merged.seo).toEqual(theirs.seo);
    expect(changedFields(withSeo, base)).toEqual({});
    expect(changedFields(withSeo, mine)).toEqual({ seo: mine.seo });
  });

  it('names a field both changed differently, and not one both changed alike', () => {
    const theirs = { ...base, body: 'Their body', siteId: '' };
    const mine = { ...base, body: 'My body', siteId: '' };
    expect(mergeFields(base, mine, theirs)).toEqual({ merged: mine, conflicts: ['body'] });
  });
});

describe('admin local draft restored against a newer server version', () => {
  const draft = (fields: ArticleFields, from?: ArticleFields) => ({ fields, ...(from && { base: from }), savedAt: 0 });

  it('keeps what only the server changed since the draft was made, and brings back what the draft changed', () => {
    const server = { ...base, title: 'Server title' };
    expect(restoredDraft(draft({ ...base, body: 'Draft body' }, base), server)).toEqual({
      fields: { ...base, title: 'Server title', body: 'Draft body' },
      conflicts: [],
    });
  });

  it('names the fields both changed differently', () => {
    const server = { ...base, body: 'Server body' };
    expect(restoredDraft(draft({ ...base, body: 'Draft body' }, base), server).conflicts).toEqual(['body']);
  });

  it('restores a draft without a base (a new article, an older draft) as it is', () => {
    const fields = { ...base, body: 'Draft body' };
    expect(restoredDraft(draft(fields), { ...base, title: 'Server title' })).toEqual({ fields, conflicts: [] });
  });

  it('offers a draft only when it holds a change of its own that the server lacks', () => {
    const server = { ...base, title: 'Server title' };
    expect(draftOnOffer(draft({ ...base, body: 'Draft body' }, base), server)).toBe(true);
    // Just the older version: nothing of its own.
    expect(draftOnOffer(draft(base, base), server)).toBe(false);
    expect(draftOnOffer(draft(server, base), server)).toBe(false);
    expect(draftOnOffer(draft(EMPTY_FIELDS), server)).toBe(false);
    expect(draftOnOffer(draft({ ...base, body: 'x' }), server)).toBe(true);
  });
});
