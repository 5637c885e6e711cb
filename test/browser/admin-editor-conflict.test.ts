import { describe, expect, it } from 'vitest';
import { ownerCms } from './admin-fixture.js';
import {
  bodyText,
  editorSettings,
  expectNoProblems,
  fillBody,
  POLL,
  requestsWhileTimePasses,
} from './admin-helpers.js';

const EMAIL = 'conflict-owner@example.com';

interface Article {
  id: string;
  title: string;
  body: string;
  version: number;
}

/**
 * Stale saves overwrite others: the editor sends only what it
 * changed, with If-Match; on a 412 it merges what only the other side
 * changed and asks about what both changed.
 */
describe('admin editor and a version saved meanwhile', () => {
  const cms = ownerCms(EMAIL);

  const stored = (id: string) => cms.stored<Article>(id);
  /** Editor A, elsewhere: a PATCH through the API while B's page is open. */
  const otherEditorSaves = async (id: string, body: Partial<Article>) =>
    expect((await cms.api('PATCH', `/v1/articles/${id}`, body)).status).toBe(200);
  /** Editor B: a page opened before A saved. */
  async function openStale(title: string, { clock = false } = {}) {
    const id = await cms.createArticle({ title, body: 'Old body.' });
    const { page, problems } = await cms.signedInPage();
    // With the page's clock installed time still flows, and the test may make it pass at once (requestsWhileTimePasses).
    if (clock) await page.clock.install();
    await cms.openEditor(page, id);
    expect(await bodyText(page)).toBe('Old body.');
    return { id, page, problems };
  }

  it('keeps the other editor’s new title when a stale page saves a body change', async () => {
    const { id, page, problems } = await openStale('Original title');
    await otherEditorSaves(id, { title: 'Title by A' });
    await fillBody(page, 'Body by B.');
    await expect.poll(async () => (await stored(id)).body, POLL).toBe('Body by B.');
    expect((await stored(id)).title).toBe('Title by A');
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue(), POLL).toBe('Title by A');
    await page
      .getByTestId('editor-status')
      .getByText('Merged with changes someone else saved meanwhile.')
      .waitFor(POLL);
    expect(await page.getByTestId('conflict').count()).toBe(0);
    expectNoProblems(problems, [{ path: new RegExp(`^/v1/articles/${id}$`), status: 412 }]);
  });

  it('shows both versions of a field both changed, saves nothing until asked, and keeps the one chosen', async () => {
    const { id, page, problems } = await openStale('Both edit the body', { clock: true });
    await otherEditorSaves(id, { body: 'Body by A.' });
    await fillBody(page, 'Body by B.');
    const conflict = page.getByTestId('conflict');
    await conflict.getByRole('heading', { name: 'Someone else saved this article meanwhile' }).waitFor(POLL);
    expect(await conflict.getByTestId('conflict-body').getByTestId('theirs').textContent()).toBe('Body by A.');
    expect(await conflict.getByTestId('conflict-body').getByTestId('mine').textContent()).toBe('Body by B.');
    // Nothing is sent while both are on screen, even when typing on.
    await fillBody(page, 'Body by B, still typing.');
    expect(await requestsWhileTimePasses(page, 5_000)).toEqual([]);
    expect((await stored(id)).body).toBe('Body by A.');
    await conflict.getByRole('button', { name: 'Keep mine' }).click();
    await expect.poll(async () => (await stored(id)).body, POLL).toBe('Body by B, still typing.');
    await expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), POLL).toBe('saved');

    // Again, and this time theirs is taken.
    await otherEditorSaves(id, { body: 'A again.' });
    await fillBody(page, 'B again.');
    await conflict.getByRole('button', { name: 'Take theirs' }).click();
    await expect.poll(() => bodyText(page), POLL).toBe('A again.');
    await expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), POLL).toBe('saved');
    expect((await stored(id)).body).toBe('A again.');
    // (One entry stands for each of the 412s the two stale saves got.)
    expectNoProblems(problems, [{ path: new RegExp(`^/v1/articles/${id}$`), status: 412 }]);
  });

  it('SEO travels in the editor’s save: a stale one merges what only the other changed, field by field, and asks about what both changed', async () => {
    const { id, page, problems } = await openStale('SEO on both sides');
    const seoOf = async () =>
      (await cms.api<{ seo: Record<string, unknown> }>('GET', `/v1/articles/${id}/seo`)).body.seo;
    const otherEditorSavesSeo = async (seo: Record<string, unknown>) =>
      expect((await cms.api('PUT', `/v1/articles/${id}/seo`, seo)).status).toBe(200);
    await editorSettings(page);
    const panel = page.getByTestId('seo-panel');
    await panel.getByLabel(/^Meta title/).waitFor(POLL);
    // No save of its own: the editor's Save (and autosave) sends it with the article.
    expect(await panel.getByRole('button', { name: 'Save SEO' }).count()).toBe(0);

    // Both change the meta title; only A the description, only B the canonical URL.
    await otherEditorSavesSeo({ metaTitle: 'Meta by A', metaDescription: 'Description by A' });
    await panel.getByLabel(/^Meta title/).fill('Meta by B');
    await panel.getByLabel(/^Canonical URL/).fill('https://b.example/post');
    // The question is asked beside the text (the settings drawer of a phone covers it).
    await editorSettings(page, false);
    const conflict = page.getByTestId('conflict');
    await conflict.getByRole('heading', { name: 'Someone else saved this article meanwhile' }).waitFor(POLL);
    const contested = conflict.getByTestId('conflict-seo.metaTitle');
    expect(await contested.getByRole('heading', { name: 'SEO: Meta title' }).count()).toBe(1);
    expect(await contested.getByTestId('theirs').textContent()).toBe('Meta by A');
    expect(await contested.getByTestId('mine').textContent()).toBe('Meta by B');
    expect(await conflict.getByTestId('conflict-seo.metaDescription').count()).toBe(0);
    await expect.poll(() => panel.getByLabel(/^Meta description/).inputValue(), POLL).toBe('Description by A');
    // Nothing was written over A's version.
    expect(await seoOf()).toMatchObject({ metaTitle: 'Meta by A', canonicalUrl: null });
    await conflict.getByRole('button', { name: 'Keep mine' }).click();
    await expect.poll(seoOf, POLL).toMatchObject({
      metaTitle: 'Meta by B',
      metaDescription: 'Description by A',
      canonicalUrl: 'https://b.example/post',
    });

    // Again, A first; this time B takes theirs for the contested field and keeps its own other change.
    await otherEditorSavesSeo({ metaTitle: 'A again', canonicalUrl: 'https://b.example/post' });
    await editorSettings(page);
    await panel.getByLabel(/^Meta title/).fill('B again');
    await panel.getByLabel('Ask search engines not to index this article (noindex)').check();
    await editorSettings(page, false);
    await conflict.getByRole('button', { name: 'Take theirs' }).click();
    await expect.poll(seoOf, POLL).toMatchObject({ metaTitle: 'A again', noindex: true });
    expect(await panel.getByLabel(/^Meta title/).inputValue()).toBe('A again');
    // A cleared the description; B did not touch it: it stays cleared.
    expect((await seoOf()).metaDescription).toBeNull();
    // The editor's version moved on with it: a body change saves without another 412.
    await fillBody(page, 'Body after the SEO merge.');
    await expect.poll(async () => (await stored(id)).body, POLL).toBe('Body after the SEO merge.');
    await expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), POLL).toBe('saved');
    expectNoProblems(problems, [{ path: new RegExp(`^/v1/articles/${id}$`), status: 412 }]);
  });
});
