import { describe, expect, it } from 'vitest';
import { JPEG_400x300 } from '../support/images.js';
import { ownerCms } from './admin-fixture.js';
import { editorSettings, expectNoProblems, POLL } from './admin-helpers.js';

const OWNER = 'owner@example.com';

/**
 * The feature-image picker: a dialog of thumbnails named
 * by their words, not id-like file names, with the library to search and
 * choose from; a library image of another article becomes this one's.
 */
describe('admin editor: feature image picker', () => {
  const cms = ownerCms(OWNER);

  it('shows thumbnails of the article and of the library, searches it, and takes a library image', async () => {
    const holder = await cms.createArticle({ title: 'Holidays' });
    const form = new FormData();
    form.append('file', new Blob([JPEG_400x300 as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), 'beach.jpg');
    form.append('alt', 'A sunny beach');
    const res = await fetch(`${cms.server.url}/v1/articles/${holder}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cms.token}` },
      body: form,
    });
    const beach = ((await res.json()) as { image: { id: string } }).image;
    const id = await cms.createArticle({ title: 'Travel notes', body: 'Text.' });

    const { page, problems } = await cms.signedInPage();
    await cms.openEditor(page, id);
    await editorSettings(page);
    await page.getByRole('button', { name: 'Choose feature image…' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose the feature image' });
    await picker.waitFor(POLL);
    expect(await picker.getByRole('list', { name: 'This article’s images' }).count()).toBe(0);
    const library = picker.getByRole('list', { name: 'Library' });
    const option = library.getByRole('button', { name: 'A sunny beach' });
    await option.waitFor(POLL);
    // A thumbnail from the server's small variants, not the original.
    await expect
      .poll(() => option.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.currentSrc), POLL)
      .toMatch(/\?w=\d+/);

    await picker.getByLabel('Search the library').fill('nothing like it');
    await picker.getByText('No other images.').waitFor(POLL);
    await picker.getByLabel('Search the library').fill('sunny');
    await option.click();
    await picker.waitFor({ state: 'hidden', ...POLL });
    await page.getByTestId('feature-preview').waitFor(POLL);
    await page.keyboard.press('Control+s');
    await expect
      .poll(async () => (await cms.stored<{ featureImageId: string | null }>(id)).featureImageId, POLL)
      .toBe(beach.id);

    // Now one of this article's images: offered first, and shown as chosen.
    await page.getByRole('button', { name: 'Choose feature image…' }).click();
    const own = picker
      .getByRole('list', { name: 'This article’s images' })
      .getByRole('button', { name: 'A sunny beach' });
    await expect.poll(() => own.getAttribute('aria-pressed'), POLL).toBe('true');
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'hidden', ...POLL });
    expectNoProblems(problems);
  });
});
