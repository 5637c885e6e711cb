import { describe, expect, it } from 'vitest';
import { JPEG_400x300 } from '../support/images.js';
import { ownerCms } from './admin-fixture.js';
import { editorSettings, expectNoProblems, POLL } from './admin-helpers.js';

const OWNER = 'owner@example.com';

interface Article {
  id: string;
  title: string;
  slug: string;
  excerpt: string;
  featureImageId: string | null;
  featureImage: { url: string; srcset: string } | null;
}

/** The editor's slug, excerpt and feature image card (content-fields.tsx), in Chromium against the real Node server. */
describe('admin editor: slug, excerpt and feature image', () => {
  const cms = ownerCms(OWNER);

  const read = (id: string) => cms.stored<Article>(id);

  it('checks the slug, shows a taken one in words, saves all three, and the editor keeps saving', async () => {
    const base = cms.server.url;
    await cms.api('POST', '/v1/articles', { title: 'Other', slug: 'taken-slug' });
    const art = (
      await cms.api<{ article: Article }>('POST', '/v1/articles', {
        title: 'Cards and lists',
        body: 'The first words of the text.',
      })
    ).body.article;
    expect(art.slug).toBe('cards-and-lists');
    const form = new FormData();
    form.append('file', new Blob([JPEG_400x300 as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), 'cover.jpg');
    const uploaded = await fetch(`${base}/v1/articles/${art.id}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cms.token}` },
      body: form,
    });
    const cover = ((await uploaded.json()) as { image: { id: string } }).image;

    const { page, problems } = await cms.signedInPage();
    await cms.openEditor(page, art.id);
    await editorSettings(page);
    const card = page.getByTestId('content-fields');
    await card.waitFor(POLL);
    await expect.poll(() => page.getByLabel('Slug', { exact: true }).inputValue(), POLL).toBe('cards-and-lists');
    // A derived excerpt is the placeholder, not text the author wrote.
    expect(await page.getByLabel('Excerpt', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('Excerpt', { exact: true }).getAttribute('placeholder')).toBe(
      'The first words of the text.',
    );

    // Saved with the article (Ctrl+S here; autosave alike): the slug is checked by the API's rule first.
    const saveState = () => page.getByTestId('save-state').getAttribute('data-state');
    await page.getByLabel('Slug', { exact: true }).fill('Not A Slug');
    await page.keyboard.press('Control+s');
    await card
      .getByRole('alert')
      .getByText(/lower-case letters/)
      .waitFor(POLL);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('content-slug');
    expect(await saveState()).not.toBe('saved');
    await page.getByLabel('Slug', { exact: true }).fill('taken-slug');
    await page.keyboard.press('Control+s');
    await card
      .getByRole('alert')
      .getByText('Another article already uses the slug “taken-slug”. Choose another.')
      .waitFor(POLL);
    expect(await saveState()).not.toBe('saved');
    expect((await read(art.id)).slug).toBe('cards-and-lists');

    await page.getByLabel('Slug', { exact: true }).fill('cards');
    await page.getByLabel('Excerpt', { exact: true }).fill('A short summary for cards.');
    await page.getByRole('button', { name: 'Choose feature image…' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose the feature image' });
    await picker
      .getByRole('list', { name: 'This article’s images' })
      .getByRole('button', { name: 'cover.jpg' })
      .click();
    await picker.waitFor({ state: 'hidden', ...POLL });
    await expect
      .poll(
        () => page.getByTestId('feature-preview').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
        POLL,
      )
      .toBeGreaterThan(0);
    await expect
      .poll(() => read(art.id), POLL)
      .toMatchObject({
        slug: 'cards',
        excerpt: 'A short summary for cards.',
        featureImageId: cover.id,
      });
    await expect.poll(saveState, POLL).toBe('saved');
    expect(await card.getByRole('alert').count()).toBe(0);
    expect((await read(art.id)).featureImage?.srcset).toContain('?w=');

    // One save for everything: a title change and an excerpt being typed go together, and the save's
    // answer does not reset the excerpt (it used to be put back to the server's value).
    await editorSettings(page, false);
    await page.getByLabel('Title', { exact: true }).fill('Cards and lists, again');
    await editorSettings(page);
    await page.getByLabel('Excerpt', { exact: true }).fill('Typed while the title was saved.');
    await page.keyboard.press('Control+s');
    await expect
      .poll(() => read(art.id), POLL)
      .toMatchObject({
        title: 'Cards and lists, again',
        slug: 'cards',
        excerpt: 'Typed while the title was saved.',
        featureImageId: cover.id,
      });
    await expect.poll(saveState, POLL).toBe('saved');
    expect(await page.getByLabel('Excerpt', { exact: true }).inputValue()).toBe('Typed while the title was saved.');
    // The taken slug's 409 is the one error answer the test provoked.
    expectNoProblems(problems, [{ status: 409, path: /^\/v1\/articles\/[0-9a-f-]+$/ }]);
  });
});
