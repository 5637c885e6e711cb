import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CSP } from '../../admin-qwik/csp.ts';
import { launchChromium, mainNav, watchProblems } from '../support/browser.js';
import { JPEG_400x300 } from '../support/images.js';
import { startWranglerDev } from '../support/wrangler-dev.js';
import { editorSettings, expectNoProblems, fillBody, PASSWORD, POLL, waitForMailLink } from './admin-helpers.js';

/**
 * The admin against the Workers target as `npm run dev` serves it (workerd,
 * local D1/R2/Durable Objects, the admin from static assets): first run, a
 * published article, an upload to R2 with a variant, a large upload shrunk
 * in the browser (the wasm served as this target's assets), the media library and
 * the activity log (D1), in Chromium, with no console error or CSP violation.
 */
describe('admin on wrangler dev (Workers target)', () => {
  let dev: Awaited<ReturnType<typeof startWranglerDev>>;
  let browser: Browser;
  let articleId = '';
  beforeAll(async () => {
    dev = await startWranglerDev();
    browser = await launchChromium();
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await dev?.cleanup();
  });

  it('registers the first account, verifies it from the e-mail, and publishes an article the public API then serves', async () => {
    const base = dev.url;
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const problems = await watchProblems(context);
    const page = await context.newPage();

    // The shell and its strict CSP come from the Worker, which runs first for every path.
    const shell = await page.goto(`${base}/register`);
    expect(shell?.headers()['content-security-policy']).toBe(ADMIN_CSP);
    await page.getByRole('button', { name: 'Create account' }).waitFor(POLL);
    await page.getByLabel('E-mail address').fill('edge-owner@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor(POLL);

    // Without SMTP_URL the Worker's log mailer prints the link; wrangler dev shows the Worker's log.
    await page.goto(`${base}${await waitForMailLink(dev, '/verify', 'edge-owner@example.com')}`);
    await page.getByText('Your e-mail address is verified.').waitFor(POLL);
    await page.getByRole('link', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor(POLL);
    await page.getByLabel('E-mail address').fill('edge-owner@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor(POLL);

    // A deep link on a hard load: the Worker serves the prerendered page.
    await page.goto(`${base}/articles/new`);
    await page.getByLabel('Title', { exact: true }).fill('Served by workerd');
    await fillBody(page, 'Hello from **D1**.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('article-status').getByText('offline').waitFor(POLL);
    const id = new URL(page.url()).searchParams.get('id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('button', { name: 'Yes, publish' }).click();
    await page.getByTestId('editor-status').getByText('Published').waitFor(POLL);

    const pub = (await (await fetch(`${base}/v1/articles/${id}`)).json()) as {
      article: { title: string; status: string };
    };
    expect(pub.article).toMatchObject({ title: 'Served by workerd', status: 'online' });
    const version = (await (await fetch(`${base}/v1/system/version`)).json()) as { target: string };
    expect(version.target).toBe('workers');
    expectNoProblems(problems);
    await context.close();
    articleId = id!;
  });

  it('uploads to R2, serves a variant, and shows the media library and the activity log', async () => {
    const base = dev.url;
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const problems = await watchProblems(context);
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel('E-mail address').fill('edge-owner@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor(POLL);

    await page.goto(`${base}/articles/edit?id=${articleId}`);
    await page.getByLabel('Title', { exact: true }).waitFor(POLL);
    await editorSettings(page);
    await page.getByRole('heading', { name: 'Images' }).waitFor(POLL);
    await page
      .locator('#image-file')
      .setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(JPEG_400x300) });
    await page.getByTestId('upload').first().and(page.locator('[data-state="done"]')).waitFor(POLL);
    const images = page.getByTestId('article-images');
    await expect
      .poll(
        () =>
          images
            .locator('img')
            .evaluateAll((imgs) => imgs.length === 1 && (imgs[0] as HTMLImageElement).naturalWidth === 400),
        POLL,
      )
      .toBe(true);

    // A variant made by photon in workerd, stored in R2, then served from there.
    const { items } = (await (await fetch(`${base}/v1/articles/${articleId}/images`)).json()) as {
      items: { url: string }[];
    };
    const first = await fetch(`${new URL(items[0]!.url, base).href}?w=160&format=webp`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/webp');
    const again = await fetch(`${new URL(items[0]!.url, base).href}?w=160&format=webp`);
    expect(Buffer.from(await again.arrayBuffer())).toEqual(Buffer.from(await first.arrayBuffer()));

    // The pre-upload shrink: photon's and libwebp's wasm from this target's static assets (application/wasm, under the CSP).
    const wide = await sharp({ create: { width: 2800, height: 1000, channels: 3, background: '#3a7' } })
      .webp()
      .toBuffer();
    await page.locator('#image-file').setInputFiles({ name: 'wide.webp', mimeType: 'image/webp', buffer: wide });
    await page.getByTestId('upload').nth(1).and(page.locator('[data-state="done"]')).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('upload').nth(1).getByTestId('upload-sizes').textContent()).toMatch(
      /^2800×1000, .* → 2560×914, /,
    );
    const after = (await (await fetch(`${base}/v1/articles/${articleId}/images`)).json()) as {
      items: { width: number; height: number }[];
    };
    expect(after.items.map((i) => [i.width, i.height]).sort()).toEqual([
      [2560, 914],
      [400, 300],
    ]);

    // The settings drawer covers the page on a phone: close it before using the navigation.
    await editorSettings(page, false);
    await (await mainNav(page)).getByRole('link', { name: 'Media' }).click();
    await expect.poll(() => page.getByTestId('media-grid').locator('li').count(), POLL).toBe(2);
    await expect.poll(() => page.getByTestId('variant-stats').textContent(), POLL).toMatch(/^1 variants/);

    // The activity log lives in D1 on this target.
    await (await mainNav(page)).getByRole('link', { name: 'Activity' }).click();
    await page.getByTestId('activity-list').getByText('Uploaded an image').first().waitFor(POLL);
    await page.getByTestId('activity-list').getByText('Published an article').first().waitFor(POLL);
    expectNoProblems(problems);
    await context.close();
  });
});
