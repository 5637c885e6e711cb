import type { CDPSession, Page, Request } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ownerCms } from './admin-fixture.js';
import { bodyText, expectNoProblems, fillBody, POLL, reloadFromPage } from './admin-helpers.js';

const EMAIL = 'owner@example.com';
const IMAGE = /!\[kite\]\((\/static\/uploadedImages\/[0-9a-f-]+\.jpg)\)/g;
const PLACEHOLDER = /!\[Uploading kite\.jpg…\]\(#uploading-[0-9a-z]+\)/;

/** A JPEG of its own for each test (the library reuses what it holds), some kilobytes of noise. */
async function kite(seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(120 * 90 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761 + seed * 40503) >>> 24;
  return sharp(raw, { raw: { width: 120, height: 90, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** One DevTools session per page: conditions set through a second one would not lift the first's. */
const sessions = new WeakMap<Page, CDPSession>();
async function devtools(page: Page): Promise<CDPSession> {
  let cdp = sessions.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    sessions.set(page, cdp);
  }
  return cdp;
}

/**
 * The uplink at `bytesPerSecond` (-1: unthrottled): a 5 KB upload takes seconds, long enough to
 * watch. One rule for every request (DevTools' whole-page emulation is deprecated).
 */
async function uplink(page: Page, bytesPerSecond: number): Promise<void> {
  const rule = { urlPattern: '', latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond };
  await (await devtools(page)).send('Network.emulateNetworkConditionsByRule', {
    matchedNetworkConditions: bytesPerSecond < 0 ? [] : [rule],
  });
}

/** The browser says it is offline, then online again (`navigator.onLine` and its events; requests untouched). */
async function offlineAndBack(page: Page): Promise<void> {
  const cdp = await devtools(page);
  const state = { latency: 0, downloadThroughput: -1, uploadThroughput: -1 };
  await cdp.send('Network.overrideNetworkState', { offline: true, ...state });
  await page.waitForFunction(() => !navigator.onLine, undefined, POLL);
  await cdp.send('Network.overrideNetworkState', { offline: false, ...state });
}

/** Picks kite.jpg with the toolbar's Image button, the caret at the end of the text. */
async function pickKite(page: Page, bytes: Buffer, end = true): Promise<void> {
  if (end) await page.getByRole('textbox', { name: 'Body' }).press('Control+End');
  await page
    .getByLabel('Image', { exact: true })
    .setInputFiles({ name: 'kite.jpg', mimeType: 'image/jpeg', buffer: bytes });
}

/** Settles once the upload itself is sent (after the file was shrunk and kept in this browser). */
const uploadSent = (page: Page) =>
  page.waitForRequest((r) => r.method() === 'POST' && /\/v1\/articles\/[^/]+\/images$/.test(r.url()), POLL);

const uploadsOf = (requests: Request[]) =>
  requests.filter((r) => r.method() === 'POST' && /\/v1\/articles\/[^/]+\/images$/.test(r.url())).length;

/**
 * Images put into the text: progress while they upload, a
 * placeholder where they go, a question before leaving mid-upload, the image
 * placed when the writer comes back, and the same bytes never sent twice.
 */
describe('admin editor: uploads into the text', () => {
  const cms = ownerCms(EMAIL);

  it('shows a labelled progress bar and a placeholder, then the image; the same bytes again reuse it', async () => {
    const id = await cms.createArticle({ title: 'Kites', body: 'Intro.' });
    const { page, problems } = await cms.signedInPage();
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    await cms.openEditor(page, id);
    await fillBody(page, 'Intro.');
    const bytes = await kite(1);
    await uplink(page, 1024);
    await pickKite(page, bytes);

    const bar = page.getByRole('progressbar', { name: 'Uploading kite.jpg' });
    await bar.waitFor(POLL);
    await expect.poll(() => bodyText(page), POLL).toMatch(PLACEHOLDER);
    // The bar moves while the bytes go out (XMLHttpRequest upload progress).
    await expect.poll(async () => Number(await bar.getAttribute('value')), POLL).toBeGreaterThan(0);
    await uplink(page, -1);
    await bar.waitFor({ state: 'detached', ...POLL });
    await expect.poll(async () => [...(await bodyText(page)).matchAll(IMAGE)].length, POLL).toBe(1);
    expect(await bodyText(page)).not.toMatch(PLACEHOLDER);
    expect(uploadsOf(requests)).toBe(1);

    // The same file again: found in the library by its SHA-256, inserted, not uploaded.
    await pickKite(page, bytes);
    await expect.poll(async () => [...(await bodyText(page)).matchAll(IMAGE)].length, POLL).toBe(2);
    const [first, second] = [...(await bodyText(page)).matchAll(IMAGE)].map((m) => m[1]);
    expect(second).toBe(first);
    expect(uploadsOf(requests)).toBe(1);
    await page.getByText('kite.jpg is already in the library').waitFor(POLL);
    const images = await cms.api<{ items: unknown[] }>('GET', `/v1/articles/${id}/images`);
    expect(images.body.items).toHaveLength(1);
    expectNoProblems(problems);
  });

  it('asks before leaving mid-upload, and places the image where it was inserted on coming back', async () => {
    const id = await cms.createArticle({ title: 'Leaving', body: 'Before.\n\nAfter.' });
    const { page, problems } = await cms.signedInPage();
    await cms.openEditor(page, id);
    await bodyText(page);
    // The upload is held until the writer has left (a throttled one could finish first on a loaded machine).
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/v1\/articles\/[^/]+\/images$/, async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    // The caret after the first paragraph: the image goes between the two.
    await page.getByRole('textbox', { name: 'Body' }).press('Control+Home');
    await page.getByRole('textbox', { name: 'Body' }).press('End');
    const sent = uploadSent(page);
    await pickKite(page, await kite(2), false);
    await page.getByRole('progressbar', { name: 'Uploading kite.jpg' }).waitFor(POLL);
    await sent;

    const asked: string[] = [];
    page.on('dialog', (d) => {
      asked.push(d.message());
      void d.accept();
    });
    // The placeholder line is saved with the text (autosave): the image goes there on return.
    await page.getByText('All changes saved').waitFor(POLL);
    await page.getByRole('link', { name: '← Articles' }).click();
    await page.waitForURL(/\/articles\/?$/, POLL);
    expect(asked, JSON.stringify(asked)).toEqual([expect.stringContaining('An image is still uploading')]);

    // It finishes in the background; back in the article, the image stands where its placeholder was.
    release();
    await expect
      .poll(
        async () => (await cms.api<{ items: unknown[] }>('GET', `/v1/articles/${id}/images`)).body.items.length,
        POLL,
      )
      .toBe(1);
    await page.getByRole('link', { name: 'Leaving' }).click();
    await page.locator('.editor-layout[data-ready]').waitFor(POLL);
    await expect
      .poll(() => bodyText(page), POLL)
      .toMatch(/^Before\.\n\n!\[kite\]\(\/static\/uploadedImages\/[^)]+\)\n+After\.$/);
    expectNoProblems(problems);
  });

  it('warns before a reload mid-upload; a reload anyway resumes the upload from this browser and places the image', async () => {
    const id = await cms.createArticle({ title: 'Reloading', body: 'Text.' });
    const { page, problems } = await cms.signedInPage();
    await cms.openEditor(page, id);
    await fillBody(page, 'Text.');
    await uplink(page, 256);
    const sent = uploadSent(page);
    await pickKite(page, await kite(3));
    await page.getByRole('progressbar', { name: 'Uploading kite.jpg' }).waitFor(POLL);
    await sent;
    await expect.poll(() => bodyText(page), POLL).toMatch(PLACEHOLDER);

    const kinds: string[] = [];
    page.on('dialog', (d) => {
      kinds.push(d.type());
      // Stay the first time; leave the second.
      void (kinds.length === 1 ? d.dismiss() : d.accept());
    });
    await reloadFromPage(page, 'stay');
    expect(kinds).toEqual(['beforeunload']);
    expect(await page.getByRole('progressbar', { name: 'Uploading kite.jpg' }).isVisible()).toBe(true);

    await reloadFromPage(page, 'leave');
    expect(kinds).toEqual(['beforeunload', 'beforeunload']);
    await page.locator('.editor-layout[data-ready]').waitFor(POLL);
    await uplink(page, -1);
    await expect.poll(async () => [...(await bodyText(page)).matchAll(IMAGE)].length, POLL).toBe(1);
    expect(await bodyText(page)).toMatch(/^Text\.\n\n!\[kite\]\(\/static\/uploadedImages\/[^)]+\)\n?$/);
    const images = await cms.api<{ items: unknown[] }>('GET', `/v1/articles/${id}/images`);
    expect(images.body.items).toHaveLength(1);
    expectNoProblems(problems);
  });

  it('keeps an upload the network cut off, with its placeholder; sends it again on request, and by itself once back online', async () => {
    const id = await cms.createArticle({ title: 'Offline', body: 'Text.' });
    const { page, problems } = await cms.signedInPage();
    await cms.openEditor(page, id);
    await fillBody(page, 'Text.');
    // The upload is held, then cut off as a dropped network would (the browser gets no answer).
    let cut = () => {};
    const dropped = new Promise<void>((resolve) => {
      cut = resolve;
    });
    await page.route(/\/v1\/articles\/[^/]+\/images$/, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await dropped;
      await route.abort('connectionreset');
    });
    const sent = uploadSent(page);
    await pickKite(page, await kite(4));
    await page.getByRole('progressbar', { name: 'Uploading kite.jpg' }).waitFor(POLL);
    await sent;

    cut();
    await page.getByText('kite.jpg: waiting to be sent again').waitFor(POLL);
    await page.getByText(/kite\.jpg was not sent: .* It is kept in this browser/).waitFor(POLL);
    expect(await page.getByRole('progressbar', { name: 'Uploading kite.jpg' }).count()).toBe(0);
    expect(await bodyText(page)).toMatch(PLACEHOLDER);

    // "Send again" sends it at once; cut off again, it waits again.
    const resent = uploadSent(page);
    await page.getByRole('button', { name: 'Send kite.jpg again' }).click();
    await resent;
    await page.getByRole('button', { name: 'Send kite.jpg again' }).waitFor(POLL);

    // Back online, it is sent again by itself.
    await page.unroute(/\/v1\/articles\/[^/]+\/images$/);
    await offlineAndBack(page);
    await expect.poll(async () => [...(await bodyText(page)).matchAll(IMAGE)].length, POLL).toBe(1);
    expect(await bodyText(page)).toMatch(/^Text\.\n\n!\[kite\]\(\/static\/uploadedImages\/[^)]+\)\n?$/);
    const images = await cms.api<{ items: unknown[] }>('GET', `/v1/articles/${id}/images`);
    expect(images.body.items).toHaveLength(1);
    // The two cut-off uploads are the only requests the console reports.
    const cutOff = (l: string) => /\/images: Failed to load resource: net::ERR_CONNECTION_RESET$/.test(l);
    expect(problems.consoleErrors.filter(cutOff)).toHaveLength(2);
    expectNoProblems({ ...problems, consoleErrors: problems.consoleErrors.filter((l) => !cutOff(l)) });
  });
});
