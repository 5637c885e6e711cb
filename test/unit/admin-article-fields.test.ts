import { describe, expect, it } from 'vitest';
import {
  changedFields,
  EMPTY_FIELDS,
  isBlank,
  mergeFields,
  sameFields,
} from '../../admin-qwik/src/lib/article-fields.js';

const base = { title: 'T', body: 'B', format: 'markdown' as const, siteId: 's1', authorIds: ['a', 'b'] };

/** The editor sends only what changed (issue #15: a full record on each save reverted others' edits). */
describe('admin article fields', () => {
  it('names only the fields that changed', () => {
    expect(changedFields(base, base)).toEqual({});
    expect(changedFields(base, { ...base, body: 'B2' })).toEqual({ body: 'B2' });
    expect(changedFields(base, { ...base, title: 'T2', authorIds: ['b', 'a'] })).toEqual({
      title: 'T2',
      authorIds: ['b', 'a'],
    });
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

  it('names a field both changed differently, and not one both changed alike', () => {
    const theirs = { ...base, body: 'Their body', siteId: '' };
    const mine = { ...base, body: 'My body', siteId: '' };
    expect(mergeFields(base, mine, theirs)).toEqual({ merged: mine, conflicts: ['body'] });
  });
});
