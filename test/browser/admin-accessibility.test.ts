import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGS } from '../../admin-qwik/src/lib/catalog.js';
import { axeViolations, describeViolations } from '../support/axe.js';
import { JPEG_400x300 } from '../support/images.js';
import {
  apiCall,
  type Cms,
  createOwner,
  editorSettings,
  expectNoProblems,
  POLL,
  signIn,
  startCms,
  TOKEN_KEY,
} from './admin-helpers.js';
import { CATALOG_KINDS, sampleBody } from './catalog-kinds.js';

const EMAIL = 'a11y-owner@example.com';
const SCHEMES = ['light', 'dark'] as const;

/**
 * Every admin screen has zero accessibility violations (axe-core,
 * WCAG 2.x A and AA rules) in light and in dark mode. Each screen is
 * checked once it has drawn what it loads (its heading is there and the
 * network is idle), with seeded content so lists, cards and the editor's
 * side panel are not empty. The colour mode is the system preference the
 * admin follows by default (`emulateMedia`), as the screenshots do.
 */
describe('admin accessibility (axe)', () => {
  let cms: Cms;
  let articleId: string;
  beforeAll(async () => {
    cms = await startCms();
    const token = await createOwner(cms.server, EMAIL);
    const post = async (p: string, body: unknown) => {
      const r = await apiCall<Record<string, { id: string }>>(cms.server, 'POST', p, token, body);
      if (r.status !== 201) throw new Error(`${p}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    // An item of every catalogue kind (sites, authors, tags, …), so their lists are not empty.
    for (const kind of CATALOG_KINDS) await post(CATALOGS[kind].endpoint, sampleBody(CATALOGS[kind], 1));
    const created = await post('/v1/articles', { title: 'Colours and contrast', body: '# Heading\n\nSome *text*.' });
    articleId = created.article!.id;
    const form = new FormData();
    form.set('file', new Blob([JPEG_400x300], { type: 'image/jpeg' }), 'harbour.jpg');
    const up = await fetch(`${cms.server.url}/v1/articles/${articleId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(up.status).toBe(201);
  });
  afterAll(async () => {
    await cms?.stop();
  });

  /** The screen as it is now, in both colour modes: no violations (the message lists them, one per element). */
  async function expectAccessible(page: Page, screen: string): Promise<void> {
    await page.waitForLoadState('networkidle').catch(() => {});
    for (const colorScheme of SCHEMES) {
      await page.emulateMedia({ colorScheme });
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme), POLL).toBe(colorScheme);
      const found = describeViolations(await axeViolations(page));
      expect(found, `${screen} (${colorScheme})`).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: null });
  }

  async function wideContext(signedIn: boolean) {
    const context = await cms.browser.newContext({ viewport: { width: 1280, height: 900 } });
    cms.contexts.push(context);
    const { watchProblems } = await import('../support/browser.js');
    const problems = await watchProblems(context);
    const page = await context.newPage();
    if (signedIn) await signIn(page, cms.server.url, EMAIL);
    return { page, problems };
  }

  it('has none on the screens of a signed-out visitor', async () => {
    const { page, problems } = await wideContext(false);
    for (const [route, heading] of [
      ['/login', 'Sign in'],
      ['/register', 'Create the first account'],
      ['/reset-password', 'Reset your password'],
      ['/verify', 'Verify your e-mail'],
      ['/accept-invite', 'Accept your invitation'],
    ] as const) {
      await page.goto(`${cms.server.url}${route}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor(POLL);
      await expectAccessible(page, route);
    }
    expect(await page.evaluate((key) => sessionStorage.getItem(key), TOKEN_KEY)).toBeNull();
    expectNoProblems(problems);
  });

  // A signed-in owner's screens, one test each (each is two axe runs: together they outgrew one
  // test's time on a slow machine), in one signed-in page that the last test checks for problems.
  let owner: Awaited<ReturnType<typeof wideContext>> | undefined;
  const ownerPage = async () => {
    owner ??= await wideContext(true);
    return owner.page;
  };
  const SCREENS: [string, string | RegExp][] = [
    ['/', /./],
    ['/articles', 'Articles'],
    ['/media', 'Media'],
    ['/media/purge', 'Media purge'],
    ['/articles/new', 'New article'],
    ...CATALOG_KINDS.map((k): [string, string] => [CATALOGS[k].href, CATALOGS[k].title]),
    ['/users', 'Users'],
    ['/integrations', /Integrations/],
    ['/webhooks', 'Webhooks'],
    ['/activity', 'Activity'],
    ['/settings', 'Settings'],
    ['/profile', 'Your profile'],
  ];

  it.each(SCREENS)('has none on %s, signed in as the owner', async (route, heading) => {
    const page = await ownerPage();
    await page.goto(`${cms.server.url}${route}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor(POLL);
    await expectAccessible(page, route);
  });

  it('has none on the media detail, opened from its tile', async () => {
    const page = await ownerPage();
    await page.goto(`${cms.server.url}/media`);
    await page
      .getByTestId('media-grid')
      .getByRole('button', { name: /^Open / })
      .click();
    await page.getByTestId('media-detail').waitFor(POLL);
    await expectAccessible(page, 'media detail');
  });

  it('has none in the editor with its side panel and preview, nor in its settings drawer on a narrow screen', async () => {
    const page = await ownerPage();
    await page.goto(`${cms.server.url}/articles/edit?id=${articleId}`);
    await page.locator('[data-testid="body-editor"][data-ready]').waitFor(POLL);
    await editorSettings(page);
    await page.locator('#editor-side').waitFor(POLL);
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByTestId('preview').getByRole('heading', { name: 'Heading' }).waitFor(POLL);
    await expectAccessible(page, 'editor');

    await page.setViewportSize({ width: 390, height: 844 });
    await editorSettings(page);
    await expectAccessible(page, 'editor drawer');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('has none on the not-found screen, and the owner met no other problem on any screen', async () => {
    const page = await ownerPage();
    const missing = await page.goto(`${cms.server.url}/no-such-screen`);
    expect(missing?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor(POLL);
    await expectAccessible(page, 'not found');
    expectNoProblems(owner!.problems, [{ path: /^\/no-such-screen$/, status: 404 }]);
  });
});
