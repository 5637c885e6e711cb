import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ownerCms } from './admin-fixture.js';
import {
  bodyText,
  expectNoProblems,
  fillBody,
  keptBodies,
  POLL,
  requestsWhileTimePasses,
  signIn,
} from './admin-helpers.js';

const EMAIL = 'draft-merge-owner@example.com';

interface Article {
  id: string;
  title: string;
  body: string;
}

/**
 * A draft this browser kept is offered back after the server's
 * article changed meanwhile. Restoring it brings back what the draft
 * changed, keeps what only the server changed, and puts what both changed
 * to the editor (the 412 flow's view), measured from the version the draft
 * was made from.
 */
describe('admin editor restores a local draft field by field', () => {
  const cms = ownerCms(EMAIL);

  const stored = (id: string) => cms.stored<Article>(id);
  const otherEditorSaves = async (id: string, body: Partial<Article>) =>
    expect((await cms.api('PATCH', `/v1/articles/${id}`, body)).status).toBe(200);

  /**
   * An article whose body was typed in a tab that never reached the server
   * (its saves hang, as on a dead connection) and then crashed: the draft is
   * left in this browser. Returns the browser context that keeps it.
   */
  async function draftLeftBehind(title: string, body: string) {
    const id = await cms.createArticle({ title, body: 'Old body.' });
    const { context, page, problems } = await cms.signedInPage();
    await cms.openEditor(page, id);
    await page.route(`**/v1/articles/${id}`, async (route) => {
      if (route.request().method() !== 'PATCH') await route.fallback();
    });
    await fillBody(page, body);
    await expect.poll(() => keptBodies(page), POLL).toContain(body);
    await page.close({ runBeforeUnload: false });
    return { id, context, problems };
  }

  async function reopen(context: BrowserContext, id: string, { clock = false } = {}) {
    const page = await context.newPage();
    // With the page's clock installed time still flows, and the test may make it pass at once (requestsWhileTimePasses).
    if (clock) await page.clock.install();
    await signIn(page, cms.server.url, EMAIL);
    await page.goto(`${cms.server.url}/articles/edit?id=${id}`);
    const offer = page.getByTestId('draft-offer');
    await offer.getByRole('heading', { name: 'Unsaved changes were kept in this browser' }).waitFor(POLL);
    await offer.getByRole('button', { name: 'Restore them' }).click();
    return page;
  }

  it('keeps the server’s new title when the draft changed only the body', async () => {
    const { id, context, problems } = await draftLeftBehind('Title before', 'Body from the draft.');
    await otherEditorSaves(id, { title: 'Title by A' });
    const page = await reopen(context, id);
    await expect.poll(() => bodyText(page), POLL).toBe('Body from the draft.');
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Title by A');
    await expect.poll(async () => (await stored(id)).body, POLL).toBe('Body from the draft.');
    expect((await stored(id)).title).toBe('Title by A');
    expect(await page.getByTestId('conflict').count()).toBe(0);
    expectNoProblems(problems);
  });

  it('shows both versions of a field the draft and the server both changed, and keeps the one chosen', async () => {
    const { id, context, problems } = await draftLeftBehind('Both bodies', 'Body from the draft.');
    await otherEditorSaves(id, { title: 'New title by A', body: 'Body by A.' });
    const page = await reopen(context, id, { clock: true });
    const conflict = page.getByTestId('conflict');
    await conflict.getByRole('heading', { name: 'The article changed on the server since this draft' }).waitFor(POLL);
    expect(await conflict.getByTestId('conflict-body').getByTestId('theirs').textContent()).toBe('Body by A.');
    expect(await conflict.getByTestId('conflict-body').getByTestId('mine').textContent()).toBe('Body from the draft.');
    expect(await conflict.getByTestId('conflict-title').count()).toBe(0);
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('New title by A');
    // Nothing is sent until the choice.
    expect(await requestsWhileTimePasses(page, 5_000)).toEqual([]);
    expect((await stored(id)).body).toBe('Body by A.');
    await conflict.getByRole('button', { name: 'Keep mine' }).click();
    await expect.poll(async () => (await stored(id)).body, POLL).toBe('Body from the draft.');
    expect((await stored(id)).title).toBe('New title by A');
    await expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), POLL).toBe('saved');
    expectNoProblems(problems);
  });
});
