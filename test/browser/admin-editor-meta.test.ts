import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1x1 } from '../support/images.js';
import {
  apiCall,
  type Cms,
  createOwner,
  editorSettings,
  expectNoProblems,
  expectNoSideScroll,
  newPage,
  POLL,
  screenshots,
  signIn,
  startCms,
} from './admin-helpers.js';

const OWNER = 'owner@example.com';

interface Article {
  id: string;
  siteId: string | null;
  authorIds: string[];
}

/** The editor's site, ordered authors and SEO panel, in Chromium against the real Node server. */
describe('admin editor: site, authors, SEO', () => {
  let cms: Cms;
  let token: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    cms = await startCms();
    token = await createOwner(cms.server, OWNER);
    for (const [name, baseUrl] of [
      ['Blog', 'https://blog.example.com'],
      ['Docs', 'https://docs.example.com'],
    ]) {
      ids[name!] = (
        await apiCall<{ site: { id: string } }>(cms.server, 'POST', '/v1/sites', token, { name, baseUrl })
      ).body.site.id;
    }
    for (const [name, slug] of [
      ['Ada', 'ada'],
      ['Grace', 'grace'],
      ['Linus', 'linus'],
    ]) {
      ids[name!] = (
        await apiCall<{ author: { id: string } }>(cms.server, 'POST', '/v1/authors', token, { name, slug })
      ).body.author.id;
    }
  });
  afterAll(async () => {
    await cms?.stop();
  });

  it('sets the site and the authors in order, by keyboard, and keeps them', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, OWNER);
    await page.goto(`${base}/articles/new`);
    await page.getByLabel('Title', { exact: true }).fill('Credits and places');
    await expect.poll(() => page.locator('#article-site option').count(), POLL).toBe(3);
    await editorSettings(page);
    await page.getByLabel('Site').selectOption({ label: 'Blog' });
    for (const name of ['Ada', 'Grace', 'Linus']) {
      await page.getByLabel('Add an author').selectOption({ label: name });
      await page.getByRole('button', { name: 'Add author' }).click();
    }
    const order = page.getByTestId('article-authors').locator('.author-name');
    await expect.poll(() => order.allTextContents(), POLL).toEqual(['Ada', 'Grace', 'Linus']);
    // Linus one place up by keyboard; focus follows the moved author.
    await page.getByRole('button', { name: 'Move Linus up' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => order.allTextContents(), POLL).toEqual(['Ada', 'Linus', 'Grace']);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), POLL)
      .toBe('Move Linus up');
    await page.getByRole('button', { name: 'Remove Grace' }).click();
    await expect.poll(() => order.allTextContents(), POLL).toEqual(['Ada', 'Linus']);
    expect(await page.getByLabel('Add an author').locator('option').allTextContents()).toEqual(['Choose…', 'Grace']);

    await editorSettings(page, false);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('editor-status').getByText('Saved.').waitFor(POLL);
    await page.waitForURL(/\/articles\/edit\?id=/, POLL);
    const id = new URL(page.url()).searchParams.get('id')!;
    const stored = async () =>
      (await apiCall<{ article: Article }>(cms.server, 'GET', `/v1/articles/${id}`, token)).body.article;
    expect(await stored()).toMatchObject({ siteId: ids.Blog, authorIds: [ids.Ada, ids.Linus] });

    // A hard reload shows what is stored.
    await page.reload();
    await expect.poll(() => order.allTextContents(), POLL).toEqual(['Ada', 'Linus']);
    await expect.poll(() => page.getByLabel('Site').inputValue(), POLL).toBe(ids.Blog);

    await editorSettings(page);
    await page.getByRole('button', { name: 'Move Ada down' }).click();
    await page.getByLabel('Site').selectOption({ label: 'No site' });
    await editorSettings(page, false);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('editor-status').getByText('Saved.').waitFor(POLL);
    expect(await stored()).toMatchObject({ siteId: null, authorIds: [ids.Linus, ids.Ada] });
    expectNoProblems(problems);
  });

  it('edits the SEO record in the editor’s save, with the API rule checked first and a search-result preview', async () => {
    const base = cms.server.url;
    const art = (await apiCall<{ article: Article }>(cms.server, 'POST', '/v1/articles', token, { title: 'Findable' }))
      .body.article;
    const form = new FormData();
    form.append('file', new Blob([PNG_1x1], { type: 'image/png' }), 'cover.png');
    const uploaded = await fetch(`${cms.server.url}/v1/articles/${art.id}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const cover = ((await uploaded.json()) as { image: { url: string; filename: string } }).image;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, OWNER);
    await page.goto(`${base}/articles/edit?id=${art.id}`);
    await page.getByLabel('Title', { exact: true }).waitFor(POLL);
    await editorSettings(page);
    const panel = page.getByTestId('seo-panel');
    await panel.getByLabel(/^Meta title/).waitFor(POLL);
    expect(await page.getByTestId('serp').textContent()).toContain('Findable');

    await page.getByLabel(/^Meta title/).fill('Findable — the SEO test');
    await page.getByLabel(/^Meta description/).fill('What a search engine shows under the title.');
    await expect.poll(() => page.getByTestId('serp').textContent(), POLL).toContain('Findable — the SEO test');
    expect(await page.getByTestId('serp').textContent()).toContain('What a search engine shows under the title.');
    expect(await panel.textContent()).toContain('43 of 500 characters');
    await page.getByLabel(/^Canonical URL/).fill('javascript:alert(1)');
    await page.keyboard.press('Control+s');
    await panel.getByText('canonicalUrl must be an absolute http(s) URL').waitFor(POLL);
    expect(await page.getByLabel(/^Canonical URL/).getAttribute('aria-invalid')).toBe('true');
    // Kept in this browser only: nothing of the record reached the server.
    expect(await page.getByTestId('save-state').getAttribute('data-state')).toBe('local');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('seo-canonicalUrl');
    await page.getByLabel(/^Canonical URL/).fill('https://blog.example.com/findable');
    await page.getByLabel(/^Social image/).fill('https://cdn.example.com/findable.png');
    await page.getByLabel('Ask search engines not to index this article (noindex)').check();
    await page.keyboard.press('Control+s');
    await page.getByTestId('editor-status').getByText('Saved.').waitFor(POLL);
    expect(await page.getByLabel(/^Canonical URL/).getAttribute('aria-invalid')).toBeNull();
    const seo = await apiCall<{ seo: Record<string, unknown> }>(cms.server, 'GET', `/v1/articles/${art.id}/seo`, token);
    expect(seo.body.seo).toEqual({
      metaTitle: 'Findable — the SEO test',
      metaDescription: 'What a search engine shows under the title.',
      canonicalUrl: 'https://blog.example.com/findable',
      ogImage: 'https://cdn.example.com/findable.png',
      noindex: true,
    });

    await page.reload();
    await page.getByLabel('Title', { exact: true }).waitFor(POLL);
    await editorSettings(page);
    await expect.poll(() => page.getByLabel(/^Meta title/).inputValue(), POLL).toBe('Findable — the SEO test');
    expect(await page.getByLabel('Ask search engines not to index this article (noindex)').isChecked()).toBe(true);
    // One of the article's own images as the social image.
    await page
      .getByLabel('Use one of this article’s images as the social image')
      .selectOption({ label: cover.filename });
    // The admin writes our own path (answers make it absolute), so a new domain never breaks it.
    expect(await page.getByLabel(/^Social image/).inputValue()).toBe(new URL(cover.url).pathname);
    // The social image as the API now holds it.
    const storedOgImage = async () =>
      (await apiCall<{ seo: { ogImage: unknown } }>(cms.server, 'GET', `/v1/articles/${art.id}/seo`, token)).body.seo
        .ogImage;
    // Autosaved with the article, like any of its fields.
    await expect.poll(storedOgImage, POLL).toBe(new URL(cover.url).pathname);
    // Clearing a field clears it (the record is sent whole).
    await page.getByLabel(/^Social image/).fill('');
    await expect.poll(storedOgImage, POLL).toBeNull();
    await expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), POLL).toBe('saved');
    await expectNoSideScroll(page);
    await screenshots(page, 'article-editor');
    expectNoProblems(problems);
  });
});
