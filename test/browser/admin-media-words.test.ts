import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JPEG_400x300 } from '../support/images.js';
import { apiCall, type Cms, createOwner, expectNoProblems, newPage, POLL, signIn, startCms } from './admin-helpers.js';

const EMAIL = 'owner@example.com';

interface Image {
  id: string;
  filename: string;
  originalName: string | null;
  alt: string;
  caption: string;
}

/** The media library names images as uploaded and edits their alt text and caption. */
describe('admin media: names and words', () => {
  let cms: Cms;
  let token: string;
  let image: Image;
  beforeAll(async () => {
    cms = await startCms();
    token = await createOwner(cms.server, EMAIL);
    const article = await apiCall<{ article: { id: string } }>(cms.server, 'POST', '/v1/articles', token, {
      title: 'Birds',
    });
    const form = new FormData();
    form.set('file', new Blob([JPEG_400x300], { type: 'image/jpeg' }), 'Red kite over the hill.jpg');
    const res = await fetch(`${cms.server.url}/v1/articles/${article.body.article.id}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    image = ((await res.json()) as { image: Image }).image;
  });
  afterAll(async () => {
    await cms?.stop();
  });

  it('shows the uploaded name, saves name, alt text and caption, and finds the image by them', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, EMAIL);
    await page.goto(`${base}/media`);
    const grid = page.getByTestId('media-grid');
    await grid.getByText(image.originalName!).waitFor(POLL);
    await grid.getByRole('button', { name: `Open ${image.originalName}` }).click();
    const detail = page.getByTestId('media-detail');
    await detail.getByRole('heading', { name: image.originalName! }).waitFor(POLL);
    expect(await detail.getByText(image.filename, { exact: true }).count()).toBe(1);

    // The API's own rule first, in words: alt text is one line.
    await detail.getByLabel('Alt text').fill('A red kite\u0007 over a hill');
    await detail.getByRole('button', { name: 'Save name and words' }).click();
    await detail.locator('#image-alt-error').getByText('Alt text must not contain control characters').waitFor(POLL);
    expect(await detail.getByLabel('Alt text').inputValue()).toBe('A red kite\u0007 over a hill');

    await detail.getByLabel('Name', { exact: true }).fill('kite.jpg');
    await detail.getByLabel('Alt text').fill('A red kite over a green hill');
    await detail.getByLabel('Caption').fill('Seen from the ridge in May.');
    await detail.getByRole('button', { name: 'Save name and words' }).click();
    await page.getByTestId('image-words-status').getByText('Saved.').waitFor(POLL);
    await detail.getByRole('heading', { name: 'kite.jpg' }).waitFor(POLL);
    expect(await detail.locator('img.detail-image').getAttribute('alt')).toBe('A red kite over a green hill');
    const stored = await apiCall<{ image: Image }>(cms.server, 'GET', `/v1/media/${image.id}`, token);
    expect(stored.body.image).toMatchObject({
      originalName: 'kite.jpg',
      alt: 'A red kite over a green hill',
      caption: 'Seen from the ridge in May.',
    });
    await page.keyboard.press('Escape');
    await grid.getByText('kite.jpg').waitFor(POLL);

    for (const words of ['green hill', 'ridge in may', 'kite.jpg']) {
      await page.getByLabel('Search images').fill(words);
      await page.getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => grid.locator('li').count(), POLL).toBe(1);
    }
    await page.getByLabel('Search images').fill('osprey');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => grid.locator('li').count(), POLL).toBe(0);
    await page.getByText('No image matches.').waitFor(POLL);
    expectNoProblems(problems);
  });
});
