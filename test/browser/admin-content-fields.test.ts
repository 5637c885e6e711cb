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
    const cover = ((await uploaded.json()) as { image: { id: string; filename: string } }).image;

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

    const save = card.getByRole('button', { name: 'Save slug, excerpt and image' });
    await page.getByLabel('Slug', { exact: true }).fill('Not A Slug');
    await save.click();
    await card
      .getByRole('alert')
      .getByText(/lower-case letters/)
      .waitFor(POLL);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('content-slug');
    await page.getByLabel('Slug', { exact: true }).fill('taken-slug');
    await save.click();
    await card
      .getByRole('alert')
      .getByText('Another article already uses the slug “taken-slug”. Choose another.')
      .waitFor(POLL);
    expect((await read(art.id)).slug).toBe('cards-and-lists');

    await page.getByLabel('Slug', { exact: true }).fill('cards');
    await page.getByLabel('Excerpt', { exact: true }).fill('A short summary for cards.');
    await page.getByLabel('Feature image', { exact: true }).selectOption({ label: cover.filename });
    await expect
      .poll(
        () => page.getByTestId('feature-preview').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
        POLL,
      )
      .toBeGreaterThan(0);
    await save.click();
    await page.getByTestId('content-fields-status').getByText('Slug, excerpt and feature image saved.').waitFor(POLL);
    const saved = await read(art.id);
    expect(saved).toMatchObject({ slug: 'cards', excerpt: 'A short summary for cards.', featureImageId: cover.id });
    expect(saved.featureImage?.srcset).toContain('?w=');

    // The card handed the new version to the editor: its own save is not taken for a stale one.
    await editorSettings(page, false);
    await page.getByLabel('Title', { exact: true }).fill('Cards and lists, again');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('editor-status').getByText('Saved.').waitFor(POLL);
    expect(await read(art.id)).toMatchObject({
      title: 'Cards and lists, again',
      slug: 'cards',
      featureImageId: cover.id,
    });
    // The taken slug's 409 is the one error answer the test provoked.
    expectNoProblems(problems, [{ status: 409, path: /^\/v1\/articles\/[0-9a-f-]+$/ }]);
  });
});
