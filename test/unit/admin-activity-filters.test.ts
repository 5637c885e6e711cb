import { describe, expect, it } from 'vitest';
import { detailsText, fillDays, filterQuery, NO_FILTERS } from '../../admin-qwik/src/lib/activity.js';
import { actionLabel } from '../../admin-qwik/src/lib/activity-labels.js';
import { CATALOGS } from '../../admin-qwik/src/lib/catalog.js';

describe('admin activity filters → the API query', () => {
  it('sends nothing for no filters, and the last chosen day as an exclusive `to` of the next day', () => {
    expect(filterQuery(NO_FILTERS)).toEqual({ query: {} });
    const r = filterQuery({ action: 'auth.login', actorId: 'u-1', fromDay: '2026-02-27', toDay: '2026-02-28' });
    if (!('query' in r)) throw new Error(r.problem);
    expect(r.query).toEqual({
      action: 'auth.login',
      actorId: 'u-1',
      from: '2026-02-27T00:00:00.000Z',
      to: '2026-03-01T00:00:00.000Z',
    });
  });

  it('crosses month and year ends in UTC, leap day included', () => {
    const to = (day: string) => {
      const r = filterQuery({ ...NO_FILTERS, toDay: day });
      return 'query' in r ? r.query.to : r.problem;
    };
    expect(to('2024-02-28')).toBe('2024-02-29T00:00:00.000Z');
    expect(to('2024-02-29')).toBe('2024-03-01T00:00:00.000Z');
    expect(to('2026-12-31')).toBe('2027-01-01T00:00:00.000Z');
  });

  it('names what is wrong instead of sending it', () => {
    expect(filterQuery({ ...NO_FILTERS, fromDay: '27.02.2026' })).toEqual({ problem: 'The first day is not a date.' });
    expect(filterQuery({ ...NO_FILTERS, toDay: 'tomorrow' })).toEqual({ problem: 'The last day is not a date.' });
    expect(filterQuery({ ...NO_FILTERS, fromDay: '2026-03-02', toDay: '2026-03-01' })).toEqual({
      problem: 'The first day must not be after the last day.',
    });
    // One day is a valid range.
    expect('query' in filterQuery({ ...NO_FILTERS, fromDay: '2026-03-01', toDay: '2026-03-01' })).toBe(true);
  });
});

describe('admin activity chart days', () => {
  it('fills the missing days between the first and the last with 0', () => {
    expect(
      fillDays([
        { day: '2026-02-27', count: 3 },
        { day: '2026-03-02', count: 1 },
      ]),
    ).toEqual([
      { day: '2026-02-27', count: 3 },
      { day: '2026-02-28', count: 0 },
      { day: '2026-03-01', count: 0 },
      { day: '2026-03-02', count: 1 },
    ]);
    expect(fillDays([])).toEqual([]);
    expect(fillDays([{ day: '2026-01-01', count: 5 }])).toEqual([{ day: '2026-01-01', count: 5 }]);
  });

  it('keeps only the latest `max` days of a long span', () => {
    const days = fillDays(
      [
        { day: '2025-01-01', count: 1 },
        { day: '2025-12-31', count: 2 },
      ],
      92,
    );
    expect(days).toHaveLength(92);
    expect(days.at(-1)).toEqual({ day: '2025-12-31', count: 2 });
    expect(days[0]!.day).toBe('2025-10-01');
    expect(days.slice(0, -1).every((d) => d.count === 0)).toBe(true);
  });

  it('renders details on one line, strings bare and the rest as JSON', () => {
    expect(detailsText(null)).toBe('');
    expect(detailsText({ email: 'a@example.com', count: 2, tags: ['x'] })).toBe(
      'email: a@example.com, count: 2, tags: ["x"]',
    );
  });
});

describe('activity action words', () => {
  it('names each catalogue’s create, update and delete by its entry’s noun', () => {
    expect(actionLabel('tag.create')).toBe('Created a tag');
    expect(actionLabel('author.update')).toBe('Edited an author');
    expect(actionLabel('redirect.delete')).toBe('Deleted a redirect');
    for (const [kind, def] of Object.entries(CATALOGS)) expect(actionLabel(`${kind}.delete`)).toContain(def.noun);
  });

  it('keeps the listed words, and spells out a code it does not know', () => {
    expect(actionLabel('auth.login')).toBe('Signed in');
    expect(actionLabel('tag.create.more')).toBe('Tag create more');
    expect(actionLabel('widget.create')).toBe('Widget create');
  });
});
