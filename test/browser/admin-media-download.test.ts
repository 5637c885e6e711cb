import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JPEG_400x300 } from '../support/images.js';
import { type Cms, createOwner, expectNoProblems, newPage, POLL, signIn, startCms } from './admin-helpers.js';

const EMAIL = 'owner@example.com';

/** The media detail offers the original file under the name it was uploaded with. */
describe('admin media: download the original', () => {
  let cms: Cms;
  let image: { url: string; filename: string; originalName: string | null };
  beforeAll(async () => {
    cms = await startCms();
    const token = await createOwner(cms.server, EMAIL);
    const res = await fetch(`${cms.server.url}/v1/articles`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Birds' }),
    });
    const { article } = (await res.json()) as { article: { id: string } };
    const form = new FormData();
    form.set('file', new Blob([JPEG_400x300], { type: 'image/jpeg' }), 'Red kite over the hill.jpg');
    const up = await fetch(`${cms.server.url}/v1/articles/${article.id}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    image = ((await up.json()) as { image: typeof image }).image;
  });
  afterAll(async () => {
    await cms?.stop();
  });

  it('"Download original" saves the stored bytes under the uploaded name, not the stored one', async () => {
    expect(image.originalName).toBe('Red kite over the hill.jpg');
    expect(image.filename).not.toBe(image.originalName);
    const { page, problems } = await newPage(cms);
    await signIn(page, cms.server.url, EMAIL);
    await page.goto(`${cms.server.url}/media`);
    await page
      .getByTestId('media-grid')
      .getByRole('button', { name: /^Open / })
      .click();
    const detail = page.getByTestId('media-detail');
    const link = detail.getByRole('link', { name: 'Download original' });
    await link.waitFor(POLL);
    const [download] = await Promise.all([page.waitForEvent('download', POLL), link.click()]);
    expect(download.suggestedFilename()).toBe('Red kite over the hill.jpg');
    expect(new Uint8Array(await readFile((await download.path())!))).toEqual(JPEG_400x300);
    expectNoProblems(problems);
  });
});
