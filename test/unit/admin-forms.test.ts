import { describe, expect, it } from 'vitest';
import { describeRemoved, removedCount, settingsFromForm } from '../../admin-qwik/src/lib/purge.js';
import { seoProblems } from '../../admin-qwik/src/lib/seo.js';
import { titleProblem } from '../../admin-qwik/src/lib/title.js';

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
};

describe('admin article title check (the API TitleSchema)', () => {
  it('accepts a normal title and names the first problem of a bad one', () => {
    expect(titleProblem('Hello from the edge')).toBeNull();
    expect(titleProblem('   ')).toBe('title must not be empty');
    expect(titleProblem('x'.repeat(201))).toBe('title must be at most 200 characters');
    expect(titleProblem(` ${'x'.repeat(200)} `)).toBeNull(); // trimmed first
    expect(titleProblem('Tab\there')).toBe('title must not contain control characters');
    expect(titleProblem('half \ud800 pair')).toBe('title must be valid Unicode (no lone surrogates)');
  });
});

describe('admin SEO record check (the API SeoInputSchema)', () => {
  const blank = { metaTitle: '', metaDescription: '', canonicalUrl: '', ogImage: '', noindex: false };

  it('accepts a whole record, empty fields included', () => {
    expect(seoProblems(blank)).toEqual([]);
    expect(
      seoProblems({
        ...blank,
        metaTitle: 'T',
        canonicalUrl: 'https://x.test/a',
        ogImage: '/static/uploadedImages/a.jpg',
      }),
    ).toEqual([]);
  });

  it('refuses what the API would: a relative canonical URL, a foreign image path, a too-long title', () => {
    const issues = seoProblems({ ...blank, metaTitle: 'x'.repeat(201), canonicalUrl: '/a', ogImage: '/etc/passwd' });
    expect(issues.map((i) => i.path).sort()).toEqual(['canonicalUrl', 'metaTitle', 'ogImage']);
  });
});

describe('admin purge settings form → PUT body', () => {
  const good = { enabled: 'on', intervalHours: '24', removeDuplicates: 'on', orphanGraceHours: '48' };

  it('reads checkboxes as on/off and numbers as numbers', () => {
    expect(settingsFromForm(form(good))).toEqual({
      body: {
        enabled: true,
        intervalHours: 24,
        removeDuplicates: true,
        removeOrphans: false,
        orphanGraceHours: 48,
        dryRun: false,
      },
    });
  });

  it('says the rule for a number out of range, fractional or empty', () => {
    for (const [field, value] of [
      ['intervalHours', '0'],
      ['intervalHours', '1.5'],
      ['intervalHours', ''],
      ['orphanGraceHours', '9000'],
    ] as const) {
      const r = settingsFromForm(form({ ...good, [field]: value }));
      expect('issues' in r && r.issues[0]).toEqual({
        path: field,
        message:
          field === 'intervalHours'
            ? 'A whole number of hours from 1 to 720.'
            : 'A whole number of hours from 1 to 8760.',
      });
    }
  });

  it('counts and describes what a run removed', () => {
    const run = {
      removed: { duplicates: [{}, {}], orphanBlobs: [{}], rowsWithoutBlob: [] },
      bytesFreed: 1536,
    } as never;
    expect(removedCount(run)).toBe(3);
    expect(describeRemoved(run)).toBe('3 items, 1.5 KiB');
    expect(
      describeRemoved({ removed: { duplicates: [], orphanBlobs: [], rowsWithoutBlob: [{}] }, bytesFreed: 67 } as never),
    ).toBe('1 item, 67 B');
    expect(
      describeRemoved({ removed: { duplicates: [], orphanBlobs: [], rowsWithoutBlob: [] }, bytesFreed: 0 } as never),
    ).toBe('nothing');
  });
});
