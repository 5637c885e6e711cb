import { describe, expect, it } from 'vitest';
import { mainNav } from '../support/browser.js';
import { ownerCms } from './admin-fixture.js';
import {
  bodyText,
  editorSettings,
  expectNoProblems,
  fillBody,
  POLL,
  reloadFromPage,
  requestsWhileTimePasses,
  signIn,
} from './admin-helpers.js';

const EMAIL = 'drafts-owner@example.com';

interface Article {
  id: string;
  title: string;
  body: string;
  status: string;
}

/**
 * Work that is lost today: leaving, reloading, crashing or
 * publishing never throws away what was typed in the editor.
 */
describe('admin editor keeps what was typed', () => {
  const cms = ownerCms(EMAIL);

  const article = (id: string) => cms.stored<Article>(id);
  const byTitle = async (title: string) =>
    (await cms.api<{ items: Article[] }>('GET', '/v1/articles?limit=100')).body.items.find((a) => a.title === title);
  const created = (title: string) => cms.createArticle({ title, body: 'Old body.' });

  it('saves a new article before a link leaves it, and Back shows it again', async () => {
    const base = cms.server.url;
    const { page, problems } = await cms.signedInPage();
    await page.goto(`${base}/articles/new`);
    await page.locator('.editor-layout[data-ready]').waitFor(POLL);
    await page.getByLabel('Title', { exact: true }).fill('Left by the nav');
    await fillBody(page, 'Typed, then a click on Sites.');
    await (await mainNav(page)).getByRole('link', { name: 'Sites' }).click();
    await page.waitForURL(`${base}/sites`, POLL);
    const stored = await byTitle('Left by the nav');
    expect(stored?.body).toBe('Typed, then a click on Sites.');
    await page.goBack();
    await expect.poll(() => bodyText(page), POLL).toBe('Typed, then a click on Sites.');
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue(), POLL).toBe('Left by the nav');
    expectNoProblems(problems);
  });

  it('creates the draft from the first keystrokes, so images can be added at once', async () => {
    const base = cms.server.url;
    const { page, problems } = await cms.signedInPage();
    await page.goto(`${base}/articles/new`);
    await page.locator('.editor-layout[data-ready]').waitFor(POLL);
    await page.getByLabel('Title', { exact: true }).pressSequentially('Quick');
    await page.locator('#image-file').waitFor({ state: 'attached', ...POLL });
    await page.waitForURL(/\/articles\/edit\?id=[0-9a-f-]{36}$/, POLL);
    const id = new URL(page.url()).searchParams.get('id')!;
    // The draft is made from the first keystroke; the rest of the title follows in the next autosave.
    await expect.poll(async () => (await article(id)).title, POLL).toBe('Quick');
    await expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), POLL).toBe('saved');
    expectNoProblems(problems);
  });

  it('autosaves an existing article, and Ctrl+S saves at once instead of the browser’s "Save page"', async () => {
    const id = await created('Autosaved');
    const { page, problems } = await cms.signedInPage();
    await cms.openEditor(page, id);
    await expect.poll(() => bodyText(page), POLL).toBe('Old body.');
    await fillBody(page, 'Saved without pressing anything.');
    await expect.poll(async () => (await article(id)).body, POLL).toBe('Saved without pressing anything.');
    await expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), POLL).toBe('saved');

    // The page takes the shortcut (the browser's default is prevented) and saves. The
    // outcome is read once every listener has run: the page's own listener may have been
    // registered after this one.
    await page.evaluate(() => {
      window.addEventListener('keydown', (e) => {
        if (e.key === 's') setTimeout(() => (document.body.dataset.saveShortcut = String(e.defaultPrevented)));
      });
    });
    await fillBody(page, 'Saved with the keyboard.');
    await page.keyboard.press('Control+s');
    await expect.poll(() => page.evaluate(() => document.body.dataset.saveShortcut), POLL).toBe('true');
    await expect.poll(async () => (await article(id)).body, POLL).toBe('Saved with the keyboard.');
    await page.getByTestId('editor-status').getByText('Saved.').waitFor(POLL);
    expectNoProblems(problems);
  });

  it('asks before a reload while the server lacks changes, and offers the local draft back after a crash', async () => {
    const base = cms.server.url;
    const { page, problems } = await cms.signedInPage();
    await page.goto(`${base}/articles/new`);
    // No title yet: nothing can be created, so it stays in this browser.
    await fillBody(page, 'Words that only this browser has.');
    await expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), POLL).toBe('local');
    const asked: string[] = [];
    page.on('dialog', (dialog) => {
      asked.push(dialog.type());
      void dialog.dismiss();
    });
    await reloadFromPage(page, 'stay');
    expect(asked).toEqual(['beforeunload']);
    expect(await bodyText(page)).toBe('Words that only this browser has.');

    // A crash: the tab is gone without asking; a new one (signed in again) offers the words back.
    await page.close({ runBeforeUnload: false });
    const next = await page.context().newPage();
    await signIn(next, base, EMAIL);
    await next.goto(`${base}/articles/new`);
    const offer = next.getByTestId('draft-offer');
    await offer.getByRole('heading', { name: 'Unsaved changes were kept in this browser' }).waitFor(POLL);
    await offer.getByRole('button', { name: 'Restore them' }).click();
    await expect.poll(() => bodyText(next), POLL).toBe('Words that only this browser has.');
    await next.getByLabel('Title', { exact: true }).fill('Restored');
    await next.waitForURL(/\/articles\/edit\?id=/, POLL);
    await expect.poll(async () => (await byTitle('Restored'))?.body, POLL).toBe('Words that only this browser has.');
    expectNoProblems(problems);
  });

  it('publishes what is in the editor: Publish saves first', async () => {
    const base = cms.server.url;
    const id = await created('Publish me');
    const { page, problems } = await cms.signedInPage();
    await cms.openEditor(page, id);
    await expect.poll(() => bodyText(page), POLL).toBe('Old body.');
    await fillBody(page, 'The body that goes online.');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, publish' }).click();
    await page.getByTestId('editor-status').getByText('Saved and published').waitFor(POLL);
    // The pressed button is gone: the focus is on the outcome, not dropped to the page.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('editor-status');
    const online = (await (await fetch(`${base}/v1/articles/${id}`)).json()) as { article: Article };
    expect(online.article).toMatchObject({ status: 'online', body: 'The body that goes online.' });
    await page.reload();
    await expect.poll(() => bodyText(page), POLL).toBe('The body that goes online.');
    expectNoProblems(problems);
  });

  it('keeps the last keystrokes of a tab closed at once, and offers them back', async () => {
    const base = cms.server.url;
    const id = await created('Closed at once');
    const { page, problems } = await cms.signedInPage();
    await cms.openEditor(page, id);
    await expect.poll(() => bodyText(page), POLL).toBe('Old body.');
    // No write of this page reaches the server (on a loaded machine an autosave could start while the keys
    // come and land after the close): what is offered back can only come from the browser's own copy.
    await page.route(`**/v1/articles/${id}**`, (route) =>
      route.request().method() === 'GET' ? route.continue() : new Promise<void>(() => {}),
    );
    const editor = page.getByRole('textbox', { name: 'Body' });
    await editor.press('Control+End');
    await editor.pressSequentially(' The last sentence.');
    // Closed straight after the last key: no autosave, no quarter-second pause, no question.
    await page.close({ runBeforeUnload: false });
    expect((await article(id)).body).toBe('Old body.');

    const next = await page.context().newPage();
    await signIn(next, base, EMAIL);
    await cms.openEditor(next, id);
    const offer = next.getByTestId('draft-offer');
    await offer.getByRole('button', { name: 'Restore them' }).click();
    await expect.poll(() => bodyText(next), POLL).toBe('Old body. The last sentence.');
    await expect.poll(async () => (await article(id)).body, POLL).toBe('Old body. The last sentence.');
    expectNoProblems(problems);
  });

  it('autosaves during continuous typing, at most ten seconds apart', async () => {
    const id = await created('Typed without a pause');
    const { page, problems } = await cms.signedInPage();
    await page.clock.install();
    await cms.openEditor(page, id);
    await expect.poll(() => bodyText(page), POLL).toBe('Old body.');
    const editor = page.getByRole('textbox', { name: 'Body' });
    await editor.press('Control+End');
    // A key every second for 12 s: never the 1.5 s pause the autosave otherwise waits for.
    const sent: string[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.type('a');
      sent.push(...(await requestsWhileTimePasses(page, 1_000)));
    }
    expect(sent.length).toBeGreaterThanOrEqual(1);
    // The save went out while the keys came; its answer may still be on its way.
    await expect.poll(async () => (await article(id)).body, POLL).toMatch(/^Old body\.a{9,}$/);
    expectNoProblems(problems);
  });

  it('sends what was typed offline once the connection is back, without a keystroke', async () => {
    const id = await created('Offline for a while');
    const { context, page, problems } = await cms.signedInPage();
    await cms.openEditor(page, id);
    await expect.poll(() => bodyText(page), POLL).toBe('Old body.');
    await context.setOffline(true);
    await fillBody(page, 'Typed while offline.');
    await expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), POLL).toBe('failed');
    await context.setOffline(false);
    await expect.poll(async () => (await article(id)).body, POLL).toBe('Typed while offline.');
    await expect.poll(() => page.getByTestId('save-state').getAttribute('data-state'), POLL).toBe('saved');
    // The browser's own line for the request that found no network is expected; nothing else.
    problems.consoleErrors = problems.consoleErrors.filter((line) => !line.includes('ERR_INTERNET_DISCONNECTED'));
    expectNoProblems(problems);
  });

  it('keeps changes to a live article in its draft until Update, and Discard drops them', async () => {
    const base = cms.server.url;
    const id = await created('Live already');
    expect((await cms.api('POST', `/v1/articles/${id}/publish`)).status).toBe(200);
    const live = async () =>
      ((await (await fetch(`${base}/v1/articles/${id}`)).json()) as { article: Article }).article.body;
    const draft = async () => {
      const res = await cms.api<{ draft?: { body: string } }>('GET', `/v1/articles/${id}/draft`);
      return res.status === 404 ? null : res.body.draft?.body;
    };
    const { page, problems } = await cms.signedInPage();
    const saveState = () => page.getByTestId('save-state').getAttribute('data-state');
    await cms.openEditor(page, id);
    await expect.poll(() => bodyText(page), POLL).toBe('Old body.');

    // Autosave writes the draft; the public article stays as it was.
    await fillBody(page, 'A half-written sent');
    await expect.poll(draft, POLL).toBe('A half-written sent');
    await expect.poll(saveState, POLL).toBe('saved');
    expect(await live()).toBe('Old body.');
    await page.getByTestId('draft-badge').getByText('Changes not online yet').waitFor(POLL);
    // Opened again, the editor shows the draft.
    await page.reload();
    await page.locator('.editor-layout[data-ready]').waitFor(POLL);
    await expect.poll(() => bodyText(page), POLL).toBe('A half-written sent');

    // Update: saved first, then the draft goes live in one write.
    await fillBody(page, 'A finished sentence.');
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await page.getByTestId('editor-status').getByText('Updated: your changes are online.').waitFor(POLL);
    expect(await live()).toBe('A finished sentence.');
    expect(await draft()).toBeNull();
    await expect.poll(() => page.getByTestId('draft-badge').count(), POLL).toBe(0);

    // Discard changes: the draft is dropped and the editor shows the live version again.
    await fillBody(page, 'Second thoughts.');
    await expect.poll(draft, POLL).toBe('Second thoughts.');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await page.getByRole('button', { name: 'Yes, discard' }).click();
    await expect.poll(() => bodyText(page), POLL).toBe('A finished sentence.');
    expect(await draft()).toBeNull();
    expect(await live()).toBe('A finished sentence.');
    await expect.poll(saveState, POLL).toBe('saved');
    expectNoProblems(problems);
  });

  it('lists a live article’s revisions, compares one with the text, and restores it as the draft', async () => {
    const base = cms.server.url;
    const id = await created('With a past');
    expect((await cms.api('POST', `/v1/articles/${id}/publish`)).status).toBe(200);
    expect((await cms.api('PATCH', `/v1/articles/${id}`, { body: 'Newer body.\nSecond line.' })).status).toBe(200);
    const { page, problems } = await cms.signedInPage();
    await cms.openEditor(page, id);
    await expect.poll(() => bodyText(page), POLL).toBe('Newer body.\nSecond line.');
    await editorSettings(page);
    const panel = page.getByTestId('revisions');
    await panel.getByRole('button', { name: 'Show revisions' }).click();
    const items = panel.getByRole('listitem');
    await expect.poll(() => items.count(), POLL).toBe(2);
    // Newest first: the last one is the first publication.
    await items.last().getByRole('button', { name: 'Compare with the text' }).click();
    const diff = panel.getByTestId('revision-diff');
    await expect.poll(() => diff.locator('del').allTextContents(), POLL).toEqual(['Old body.']);
    expect(await diff.locator('ins').allTextContents()).toEqual(['Newer body.', 'Second line.']);
    await items.last().getByRole('button', { name: 'Restore' }).click();
    await panel.getByRole('button', { name: 'Yes, restore' }).click();
    await expect.poll(() => bodyText(page), POLL).toBe('Old body.');
    const draft = await cms.api<{ draft: { body: string } }>('GET', `/v1/articles/${id}/draft`);
    expect(draft.body.draft.body).toBe('Old body.');
    const live = (await (await fetch(`${base}/v1/articles/${id}`)).json()) as { article: Article };
    expect(live.article.body).toBe('Newer body.\nSecond line.');
    expectNoProblems(problems);
  });
});
