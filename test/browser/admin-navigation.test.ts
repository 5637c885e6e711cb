import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainNav } from '../support/browser.js';
import { JPEG_400x300 } from '../support/images.js';
import {
  type Cms,
  createOwner,
  expectNoProblems,
  newPage,
  POLL,
  screenshots,
  signIn,
  startCms,
} from './admin-helpers.js';

const EMAIL = 'owner@example.com';

/** Moving around the admin: the folding navigation, focus and announcements, Escape, unknown addresses, errors in words. */
describe('admin navigation', () => {
  let cms: Cms;
  let token: string;
  beforeAll(async () => {
    cms = await startCms();
    token = await createOwner(cms.server, EMAIL);
  });
  afterAll(async () => {
    await cms?.stop();
  });

  it('folds the navigation behind Menu on a phone, so the page heading comes first', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, base, EMAIL);
    await page.goto(`${base}/articles`);
    const heading = page.getByRole('heading', { level: 1, name: 'Articles' });
    await heading.waitFor(POLL);
    const top = await heading.evaluate((h) => h.getBoundingClientRect().top);
    expect(top).toBeLessThan(200);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const menu = nav.getByRole('button', { name: /^Menu/ });
    await expect.poll(() => menu.getAttribute('aria-expanded'), POLL).toBe('false');
    expect(await nav.getByRole('link').count()).toBe(0);

    await menu.click();
    await expect.poll(() => menu.getAttribute('aria-expanded'), POLL).toBe('true');
    await nav.getByRole('link', { name: 'Sites' }).waitFor(POLL);
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.getAttribute('aria-expanded'), POLL).toBe('false');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-controls')))
      .toBe('main-nav-list');

    // A client-side navigation: the menu folds again, focus is on the new heading, and it is announced.
    await page.evaluate(() => Object.assign(window, { stayed: true }));
    await (await mainNav(page)).getByRole('link', { name: 'Sites' }).click();
    await page.waitForURL(`${base}/sites`, POLL);
    // The link clicked has the focus (and its text) until the heading takes it.
    await expect
      .poll(
        () => page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent}`),
        POLL,
      )
      .toBe('H1 Sites');
    await expect.poll(() => page.getByTestId('route-announcer').textContent(), POLL).toBe('Sites page');
    expect(await page.evaluate(() => 'stayed' in window)).toBe(true);
    await expect.poll(() => menu.getAttribute('aria-expanded'), POLL).toBe('false');
    await screenshots(page, 'navigation-phone');

    // Wide screens: no Menu button, the links beside the content.
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await menu.isVisible()).toBe(false);
    await nav.getByRole('link', { name: 'Articles' }).waitFor(POLL);
    expectNoProblems(problems);
  });

  it('shows a not-found page for an unknown address, not the dashboard', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, EMAIL);
    const res = await page.goto(`${base}/articles/some-old-link`);
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor(POLL);
    await page.getByRole('navigation', { name: 'Main' }).waitFor(POLL);
    expect(await page.getByText('API ready').count()).toBe(0);
    expectNoProblems(problems, [{ path: /^\/articles\/some-old-link$/, status: 404 }]);
  });

  it('closes the image detail with Escape and gives focus back to its tile', async () => {
    const base = cms.server.url;
    const article = await fetch(`${base}/v1/articles`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'With a photo' }),
    });
    const { id } = ((await article.json()) as { article: { id: string } }).article;
    const form = new FormData();
    form.set('file', new Blob([JPEG_400x300], { type: 'image/jpeg' }), 'photo.jpg');
    const up = await fetch(`${base}/v1/articles/${id}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(up.status).toBe(201);
    const { page, problems } = await newPage(cms);
    await signIn(page, base, EMAIL);
    await page.goto(`${base}/media`);
    const tile = page.getByTestId('media-grid').getByRole('button', { name: /^Open / });
    await tile.click();
    const detail = page.getByTestId('media-detail');
    await detail.waitFor(POLL);
    // Escape in the delete question cancels the question only.
    await detail.getByRole('button', { name: 'Delete image' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent), POLL).toBe('Yes, delete');
    await page.keyboard.press('Escape');
    await detail.getByRole('button', { name: 'Delete image' }).waitFor(POLL);
    expect(await detail.count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => detail.count(), POLL).toBe(0);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), POLL)
      .toMatch(/^Open /);
    expectNoProblems(problems);
  });

  it('names fields by their labels in errors, as the forms do', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, EMAIL);
    await page.goto(`${base}/sites`);
    await page.locator('#new-name').fill('Blog');
    await page.locator('#new-baseUrl').fill('ftp://example.com');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.locator('#new-baseUrl-error').getByText('Base URL must be an http(s) URL').waitFor(POLL);
    expect(await page.getByText('baseUrl').count()).toBe(0);
    expectNoProblems(problems);
  });
});
