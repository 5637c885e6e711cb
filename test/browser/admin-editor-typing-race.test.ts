import { describe, expect, it } from 'vitest';
import { ownerCms } from './admin-fixture.js';
import { editorSettings, expectNoProblems, POLL } from './admin-helpers.js';

const EMAIL = 'typing-race-owner@example.com';

/** How much slower than this machine the page's CPU runs: renders then lag behind the keys. */
const THROTTLE = 8;

/**
 * Fast typing on a starved CPU: a field bound to the signal its own typing
 * sets could be set back by a render that ran after more keys had arrived
 * (the title once saved 'Quick' as 'Qk'). Each text field of the editor is
 * set only when the editor fills it, so every key stays, in the field and in
 * what is saved.
 */
describe('admin editor fields under a starved CPU', () => {
  const cms = ownerCms(EMAIL);

  it('keeps every key typed fast into the title, slug, excerpt and SEO fields', async () => {
    const id = await cms.createArticle({ title: 'Race', body: 'Body.' });
    const { page, problems } = await cms.signedInPage();
    await cms.openEditor(page, id);
    await editorSettings(page);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    const seo = page.getByTestId('seo-panel');
    const fields = [
      { field: page.getByLabel('Title', { exact: true }), text: ' quickly typed title' },
      { field: page.getByLabel('Slug', { exact: true }), text: '-quickly-typed-slug' },
      { field: page.getByLabel('Excerpt', { exact: true }), text: 'A quickly typed excerpt.' },
      { field: seo.getByLabel(/^Meta title/), text: 'A quickly typed meta title' },
      { field: seo.getByLabel(/^Meta description/), text: 'A quickly typed meta description.' },
    ];
    const before: string[] = [];
    for (const { field, text } of fields) {
      before.push(await field.inputValue());
      await field.press('End');
      // No delay between keys: they arrive faster than the throttled page renders.
      await field.pressSequentially(text);
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const expected = fields.map(({ text }, i) => `${before[i]}${text}`);
    for (const [i, { field }] of fields.entries()) await expect.poll(() => field.inputValue(), POLL).toBe(expected[i]);
    await expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), POLL).toBe('saved');
    const stored = await cms.stored<{
      title: string;
      slug: string;
      excerpt: string;
      seo: { metaTitle: string; metaDescription: string };
    }>(id);
    expect([stored.title, stored.slug, stored.excerpt, stored.seo.metaTitle, stored.seo.metaDescription]).toEqual(
      expected,
    );
    expectNoProblems(problems);
  });
});
