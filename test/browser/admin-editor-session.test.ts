import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ownerCms } from './admin-fixture.js';
import {
  bodyText,
  expectNoProblems,
  fillBody,
  keptBodies,
  newPage,
  PASSWORD,
  POLL,
  reloadFromPage,
  TOKEN_KEY,
} from './admin-helpers.js';

const EMAIL = 'session-owner@example.com';

/**
 * An expired session dropped the text and the place (a 401 went to
 * the login page, and signing in lost the article's address).
 */
describe('admin editor across an ended session', () => {
  const cms = ownerCms(EMAIL);

  const create = (title: string) => cms.createArticle({ title, body: 'Old body.' });
  const stored = (id: string) => cms.stored<{ body: string }>(id);
  /** What a token the server no longer accepts looks like to the admin: every call answers 401. */
  const endSession = (page: Page) =>
    page.evaluate((key) => sessionStorage.setItem(key, 'ended.session.token'), TOKEN_KEY);

  it('signs in again in a dialog, on the same page, and the save goes through', async () => {
    const base = cms.server.url;
    const id = await create('Session ends');
    const { page, problems } = await cms.signedInPage();
    await cms.openEditor(page, id);
    await expect.poll(() => bodyText(page), POLL).toBe('Old body.');
    await endSession(page);
    await fillBody(page, 'Typed while the session ended.');
    const dialog = page.getByRole('dialog', { name: 'Sign in again' });
    await dialog.waitFor(POLL);
    expect(page.url()).toBe(`${base}/articles/edit?id=${id}`);
    await expect.poll(() => dialog.getByLabel('E-mail address').inputValue(), POLL).toBe(EMAIL);
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await dialog.waitFor({ state: 'hidden', ...POLL });
    await expect.poll(async () => (await stored(id)).body, POLL).toBe('Typed while the session ended.');
    await expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), POLL).toBe('saved');
    expect(page.url()).toBe(`${base}/articles/edit?id=${id}`);
    expect(await bodyText(page)).toBe('Typed while the session ended.');
    expectNoProblems(problems, [{ path: new RegExp(`^/v1/articles/${id}$`), status: 401 }]);
  });

  it('after a reload with an ended session, signing in returns to the article and offers the text back', async () => {
    const base = cms.server.url;
    const id = await create('Reloaded after expiry');
    const { page, problems } = await cms.signedInPage();
    await cms.openEditor(page, id);
    await expect.poll(() => bodyText(page), POLL).toBe('Old body.');
    await endSession(page);
    await fillBody(page, 'Kept across the sign-in.');
    await page.getByRole('dialog', { name: 'Sign in again' }).waitFor(POLL);
    // Declined, then the tab is reloaded: the shell finds the session over and goes to the login page.
    await page.getByRole('button', { name: 'Not now' }).click();
    await expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), POLL).toBe('failed');
    // The text is kept in this browser before the tab goes (what is offered back after signing in).
    await expect.poll(() => keptBodies(page), POLL).toContain('Kept across the sign-in.');
    const asked: string[] = [];
    page.on('dialog', (d) => {
      asked.push(d.type());
      void d.accept();
    });
    await reloadFromPage(page, 'leave');
    expect(asked).toEqual(['beforeunload']);
    await page.waitForURL(`${base}/login?next=${encodeURIComponent(`/articles/edit?id=${id}`)}`, POLL);
    await page.getByLabel('E-mail address').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/articles/edit?id=${id}`, POLL);
    await page.getByTestId('draft-offer').getByRole('button', { name: 'Restore them' }).click();
    await expect.poll(() => bodyText(page), POLL).toBe('Kept across the sign-in.');
    await expect.poll(async () => (await stored(id)).body, POLL).toBe('Kept across the sign-in.');
    expectNoProblems(problems, [{ path: new RegExp(`^/v1/articles/${id}$`), status: 401 }]);
  });

  it('opens a shared article link after signing in, query and all', async () => {
    const base = cms.server.url;
    const id = await create('Shared link');
    const { page, problems } = await newPage(cms);
    await page.goto(`${base}/articles/edit?id=${id}`);
    await page.waitForURL(/\/login\?next=/, POLL);
    await page.getByLabel('E-mail address').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/articles/edit?id=${id}`, POLL);
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue(), POLL).toBe('Shared link');
    expectNoProblems(problems);
  });
});
