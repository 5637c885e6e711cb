import { describe, expect, it } from 'vitest';
import { DEFAULT_LIST, listQuery, listStateFrom, searchOf } from '../../admin-qwik/src/lib/article-list.js';

const SITE = '0190a000-0000-7000-8000-000000000001';

describe('admin article list state ↔ the address and the API query', () => {
  it('writes only what differs from the defaults, and reads it back', () => {
    expect(searchOf(DEFAULT_LIST)).toBe('');
    const state = {
      ...DEFAULT_LIST,
      q: '  100% _done ',
      status: 'offline' as const,
      siteId: SITE,
      sort: 'title' as const,
      order: 'asc' as const,
    };
    const search = searchOf(state);
    expect(search).toBe(`?q=100%25+_done&status=offline&siteId=${SITE}&sort=title&order=asc`);
    expect(listStateFrom(search)).toEqual({ ...state, q: '100% _done' });
  });

  it('reads anything unknown in the address as the default, never as an error', () => {
    expect(listStateFrom('?status=gone&siteId=nope&sort=views&order=up&authorId=1')).toEqual(DEFAULT_LIST);
    // A sort the screen does not offer (publishedAt ascending) falls back whole.
    expect(listStateFrom('?sort=publishedAt&order=asc')).toEqual(DEFAULT_LIST);
    expect(listStateFrom(`?q=${'x'.repeat(60)}`).q).toHaveLength(48);
  });

  it('asks the API for the same list, with the cursor when there is one', () => {
    expect(listQuery(DEFAULT_LIST, 20, null)).toEqual({ limit: 20 });
    expect(listQuery({ ...DEFAULT_LIST, q: ' pie ', sort: 'updatedAt' }, 40, 'abc')).toEqual({
      limit: 40,
      q: 'pie',
      sort: 'updatedAt',
      cursor: 'abc',
    });
  });

  it('parts the offline articles into Draft and Scheduled with the API’s scheduled filter', () => {
    expect(listStateFrom('?status=scheduled').status).toBe('scheduled');
    expect(listQuery({ ...DEFAULT_LIST, status: 'scheduled' }, 20, null)).toEqual({ limit: 20, scheduled: 'true' });
    expect(listQuery({ ...DEFAULT_LIST, status: 'offline' }, 20, null)).toEqual({
      limit: 20,
      status: 'offline',
      scheduled: 'false',
    });
    expect(listQuery({ ...DEFAULT_LIST, status: 'online' }, 20, null)).toEqual({ limit: 20, status: 'online' });
  });
});
