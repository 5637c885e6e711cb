import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ownerCms } from './admin-fixture.js';
import { bodyText, editorSettings, expectNoProblems, fillBody, POLL } from './admin-helpers.js';

const EMAIL = 'live-draft-owner@example.com';

interface Seo {
  metaTitle: string | null;
  metaDescription: string | null;
  noindex: boolean;
}
interface Fields {
  title: string;
  body: string;
  slug: string;
  excerpt: string;
  seo: Seo;
}

/**
 * Everything on the editor's screen travels in an online article's draft and
 * in the same save (title, body, slug, excerpt, SEO): nothing of it is live
 * before "Update". A draft saved meanwhile elsewhere (another tab, another
 * person) is merged field by field, and what both changed is put to the writer.
 */
describe('admin editor: one draft and one save for every field of a live article', () => {
  const cms = ownerCms(EMAIL);

  async function liveArticle(title: string): Promise<string> {
    const id = await cms.createArticle({ title, body: 'Live body.' });
    expect((await cms.api('PUT', `/v1/articles/${id}/seo`, { metaTitle: 'Live meta' })).status).toBe(200);
    expect((await cms.api('POST', `/v1/articles/${id}/publish`)).status).toBe(200);
    return id;
  }
  /** What the public reads. */
  const live = async (id: string) =>
    ((await (await fetch(`${cms.server.url}/v1/articles/${id}`)).json()) as { article: Fields }).article;
  const draft = async (id: string) => {
    const res = await cms.api<{ draft: Fields }>('GET', `/v1/articles/${id}/draft`);
    return res.status === 404 ? null : res.body.draft;
  };
  const saveState = (page: Page) => page.getByTestId('save-state').getAttribute('data-state');

  it('keeps SEO, slug and excerpt changes in the draft with the text until Update puts them all online', async () => {
    const id = await liveArticle('Live with SEO');
    const { page, problems } = await cms.signedInPage();
    await cms.openEditor(page, id);
    await expect.poll(() => bodyText(page), POLL).toBe('Live body.');
    await editorSettings(page);
    const seo = page.getByTestId('seo-panel');
    await expect.poll(() => seo.getByLabel(/^Meta title/).inputValue(), POLL).toBe('Live meta');
    await seo.getByLabel(/^Meta title/).fill('Draft meta');
    await seo.getByLabel('Ask search engines not to index this article (noindex)').check();
    await page.getByLabel('Slug', { exact: true }).fill('draft-slug');
    await page.getByLabel('Excerpt', { exact: true }).fill('Draft excerpt.');
    await editorSettings(page, false);
    await fillBody(page, 'Draft body.');

    await expect.poll(() => saveState(page), POLL).toBe('saved');
    await expect
      .poll(() => draft(id), POLL)
      .toMatchObject({
        body: 'Draft body.',
        slug: 'draft-slug',
        excerpt: 'Draft excerpt.',
        seo: { metaTitle: 'Draft meta', noindex: true },
      });
    // Nothing of it is live: not the SEO record either (it once saved on its own, to the live article).
    expect(await live(id)).toMatchObject({ body: 'Live body.', seo: { metaTitle: 'Live meta', noindex: false } });
    expect((await live(id)).slug).not.toBe('draft-slug');

    // A reload shows the draft's values in every field.
    await page.reload();
    await page.locator('.editor-layout[data-ready]').waitFor(POLL);
    await editorSettings(page);
    await expect.poll(() => seo.getByLabel(/^Meta title/).inputValue(), POLL).toBe('Draft meta');
    expect(await seo.getByLabel('Ask search engines not to index this article (noindex)').isChecked()).toBe(true);
    expect(await page.getByLabel('Slug', { exact: true }).inputValue()).toBe('draft-slug');
    await editorSettings(page, false);

    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await page.getByTestId('editor-status').getByText('Updated: your changes are online.').waitFor(POLL);
    expect(await live(id)).toMatchObject({
      body: 'Draft body.',
      slug: 'draft-slug',
      excerpt: 'Draft excerpt.',
      seo: { metaTitle: 'Draft meta', noindex: true },
    });
    expect(await draft(id)).toBeNull();
    expectNoProblems(problems);
  });

  it('merges a draft saved meanwhile field by field, and asks only about the field both changed', async () => {
    const id = await liveArticle('Draft from two tabs');
    const { page, problems } = await cms.signedInPage();
    await cms.openEditor(page, id);
    await expect.poll(() => bodyText(page), POLL).toBe('Live body.');
    // This tab writes the draft first (its ETag is "d1").
    await fillBody(page, 'Body from this tab.');
    await expect.poll(async () => (await draft(id))?.body, POLL).toBe('Body from this tab.');
    await expect.poll(() => saveState(page), POLL).toBe('saved');

    // Another tab saves the draft meanwhile: a new title and a meta title.
    const other = await cms.api('PUT', `/v1/articles/${id}/draft`, {
      title: 'Title from the other tab',
      seo: { metaTitle: 'Meta from the other tab' },
    });
    expect(other.status).toBe(200);

    // This tab changes the body again (only it did) and the meta title (both did).
    await editorSettings(page);
    await page
      .getByTestId('seo-panel')
      .getByLabel(/^Meta title/)
      .fill('Meta from this tab');
    await editorSettings(page, false);
    await fillBody(page, 'Body from this tab, again.');
    const conflict = page.getByTestId('conflict');
    await conflict.getByRole('heading', { name: 'Someone else saved this article meanwhile' }).waitFor(POLL);
    const contested = conflict.getByTestId('conflict-seo.metaTitle');
    expect(await contested.getByTestId('theirs').textContent()).toBe('Meta from the other tab');
    expect(await contested.getByTestId('mine').textContent()).toBe('Meta from this tab');
    expect(await conflict.locator('.conflict-field').count()).toBe(1);
    // The other tab's title came into the editor; this tab's body stayed.
    await expect
      .poll(() => page.getByLabel('Title', { exact: true }).inputValue(), POLL)
      .toBe('Title from the other tab');
    expect(await bodyText(page)).toBe('Body from this tab, again.');
    // Nothing was written over the other tab's draft while the question stands.
    expect(await draft(id)).toMatchObject({
      body: 'Body from this tab.',
      seo: { metaTitle: 'Meta from the other tab' },
    });

    await conflict.getByRole('button', { name: 'Keep mine' }).click();
    await expect
      .poll(() => draft(id), POLL)
      .toMatchObject({
        title: 'Title from the other tab',
        body: 'Body from this tab, again.',
        seo: { metaTitle: 'Meta from this tab' },
      });
    await expect.poll(() => saveState(page), POLL).toBe('saved');
    expect((await live(id)).body).toBe('Live body.');
    expectNoProblems(problems, [{ path: new RegExp(`^/v1/articles/${id}/draft$`), status: 412 }]);
  });
});
