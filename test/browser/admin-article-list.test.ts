import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  type Cms,
  createOwner,
  expectNoProblems,
  expectNoSideScroll,
  newPage,
  POLL,
  screenshots,
  signIn,
  startCms,
} from './admin-helpers.js';

const EMAIL = 'owner@example.com';

/** The article list in Chromium: search, filters, order, the address, Back, bulk actions. */
describe('admin article list', () => {
  let cms: Cms;
  let token: string;
  let siteId: string;
  let authorId: string;
  const ids: Record<string, string> = {};
  const api = <T = unknown>(method: string, path: string, body?: unknown) =>
    apiCall<T>(cms.server, method, path, token, body);

  beforeAll(async () => {
    cms = await startCms();
    token = await createOwner(cms.server, EMAIL);
    siteId = (await api<{ site: { id: string } }>('POST', '/v1/sites', { name: 'Blog', baseUrl: 'https://b.example' }))
      .body.site.id;
    authorId = (await api<{ author: { id: string } }>('POST', '/v1/authors', { name: 'Ada Lovelace', slug: 'ada' }))
      .body.author.id;
    for (let i = 0; i < 30; i++) await api('POST', '/v1/articles', { title: `Filler ${String(i).padStart(2, '0')}` });
    const make = async (title: string, json: Record<string, unknown>) => {
      ids[title] = (await api<{ article: { id: string } }>('POST', '/v1/articles', { title, ...json })).body.article.id;
    };
    await make('Apple pie', { body: 'Sweet.', siteId, authorIds: [authorId] });
    await make('Banana bread', { body: 'Better with apple sauce.' });
    await make('Cherry tart', { body: 'Red.', siteId });
    await api('POST', `/v1/articles/${ids['Apple pie']}/publish`);
  });
  afterAll(async () => {
    await cms?.stop();
  });

  it('searches, filters and sorts, keeps it all in the address, and reads statuses as Published and Draft', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, EMAIL);
    await page.goto(`${base}/articles`);
    const list = page.getByTestId('article-list');
    const titles = () => list.locator('.item-title').allTextContents();
    await expect.poll(() => list.locator('li').count(), POLL).toBe(20);

    // The search runs as one types: no button, no Enter.
    await page.getByLabel('Search articles').pressSequentially('apple');
    await expect.poll(titles, POLL).toEqual(['Banana bread', 'Apple pie']);
    await expect.poll(() => new URL(page.url()).search, POLL).toBe('?q=apple');
    const states = await list.getByTestId('article-state').allTextContents();
    expect(states).toEqual(['Draft', 'Published']);

    await page.getByLabel('Status').selectOption({ label: 'Published' });
    await expect.poll(titles, POLL).toEqual(['Apple pie']);
    await page.getByLabel('Status').selectOption({ label: 'All' });
    await page.getByLabel('Search articles').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByLabel('Site').selectOption({ label: 'Blog' });
    await page.getByLabel('Order').selectOption({ label: 'Title A–Z' });
    await expect.poll(titles, POLL).toEqual(['Apple pie', 'Cherry tart']);
    await expect.poll(() => new URL(page.url()).searchParams.get('siteId'), POLL).toBe(siteId);
    await page.getByLabel('Author').selectOption({ label: 'Ada Lovelace' });
    await expect.poll(titles, POLL).toEqual(['Apple pie']);
    await expect
      .poll(() => Object.fromEntries(new URL(page.url()).searchParams), POLL)
      .toEqual({ siteId, authorId, sort: 'title', order: 'asc' });

    // A reload (or a shared link) shows the same list with the same controls.
    await page.reload();
    await expect.poll(titles, POLL).toEqual(['Apple pie']);
    expect(await page.getByLabel('Site').inputValue()).toBe(siteId);
    expect(await page.getByLabel('Author').inputValue()).toBe(authorId);
    expect(await page.getByLabel('Order').inputValue()).toBe('title:asc');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => list.locator('li').count(), POLL).toBe(20);
    await expect.poll(() => new URL(page.url()).search, POLL).toBe('?sort=title&order=asc');
    expect((await titles())[0]).toBe('Apple pie');
    await expectNoSideScroll(page);
    await screenshots(page, 'article-list');
    expectNoProblems(problems);
  });

  it('keeps a filter picked while the sites and authors are still loading', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, EMAIL);
    // The sites and authors arrive when the test says, after the pick.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/v1\/(sites|authors)\?/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${base}/articles`);
    const list = page.getByTestId('article-list');
    await expect.poll(() => list.locator('li').count(), POLL).toBe(20);
    // What a pick leaves in the page before its handler (loaded on the first pick) has run.
    await page.getByLabel('Status').evaluate((el) => {
      (el as HTMLElement & { value: string }).value = 'online';
    });
    release();
    await page
      .getByLabel('Site')
      .getByRole('option', { name: 'Blog' })
      .waitFor({ state: 'attached', ...POLL });
    await page
      .getByLabel('Author')
      .getByRole('option', { name: 'Ada Lovelace' })
      .waitFor({ state: 'attached', ...POLL });
    expect(await page.getByLabel('Status').inputValue()).toBe('online');
    await page.getByLabel('Status').dispatchEvent('change');
    await expect.poll(() => new URL(page.url()).search, POLL).toBe('?status=online');
    await expect.poll(() => list.getByTestId('article-state').allTextContents(), POLL).toEqual(['Published']);
    expectNoProblems(problems);
  });

  it('returns to the same rows and scroll position after Back from an article', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, EMAIL);
    await page.goto(`${base}/articles?q=filler`);
    const list = page.getByTestId('article-list');
    await expect.poll(() => list.locator('li').count(), POLL).toBe(20);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => list.locator('li').count(), POLL).toBe(30);
    const target = list.getByRole('link', { name: 'Filler 02' });
    await target.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(500);
    await page.evaluate(() => Object.assign(window, { leftHere: true }));
    await target.click();
    await page.waitForURL(/\/articles\/edit\?id=/, POLL);
    await page.goBack();
    await page.waitForURL(`${base}/articles?q=filler`, POLL);
    // A new document (not one kept in the back-forward cache): the list rebuilt itself from the entry.
    expect(await page.evaluate(() => 'leftHere' in window)).toBe(false);
    await expect.poll(() => list.locator('li').count(), POLL).toBe(30);
    expect(await page.getByLabel('Search articles').inputValue()).toBe('filler');
    await expect.poll(() => page.evaluate(() => window.scrollY), POLL).toBe(scrolled);
    expectNoProblems(problems);
  });

  it('publishes, unpublishes and deletes the selected articles after a question', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, EMAIL);
    await page.goto(`${base}/articles?q=re`); // Banana bread, Cherry tart ("Red."), not Apple pie
    const list = page.getByTestId('article-list');
    await expect.poll(() => list.locator('li').count(), POLL).toBe(2);
    expect(await page.getByTestId('bulk-bar').count()).toBe(0);
    await page.getByLabel('Select all shown').check();
    const bar = page.getByTestId('bulk-bar');
    await bar.getByText('2 articles selected').waitFor(POLL);

    await bar.getByRole('button', { name: 'Publish', exact: true }).click();
    await bar.getByRole('group', { name: 'Publish 2 articles?' }).getByRole('button', { name: 'Cancel' }).click();
    let stored = await api<{ article: { status: string } }>('GET', `/v1/articles/${ids['Banana bread']}`);
    expect(stored.body.article.status).toBe('offline');

    await bar.getByRole('button', { name: 'Publish', exact: true }).click();
    await bar.getByRole('button', { name: 'Yes, publish' }).click();
    await page.getByTestId('bulk-outcome').getByText('2 articles published.').waitFor(POLL);
    await expect
      .poll(() => list.getByTestId('article-state').allTextContents(), POLL)
      .toEqual(['Published', 'Published']);
    stored = await api('GET', `/v1/articles/${ids['Cherry tart']}`);
    expect(stored.body.article.status).toBe('online');

    await list.getByLabel('Select “Cherry tart”').check();
    await bar.getByRole('button', { name: 'Unpublish' }).click();
    await bar.getByRole('button', { name: 'Yes, unpublish' }).click();
    await page.getByTestId('bulk-outcome').getByText('1 article unpublished.').waitFor(POLL);
    stored = await api('GET', `/v1/articles/${ids['Cherry tart']}`);
    expect(stored.body.article.status).toBe('offline');

    await page.getByLabel('Select all shown').check();
    await bar.getByRole('button', { name: 'Delete' }).click();
    await bar.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByTestId('bulk-outcome').getByText('2 articles deleted.').waitFor(POLL);
    await page.getByText('No articles match these filters.').waitFor(POLL);
    expect((await api('GET', `/v1/articles/${ids['Banana bread']}`)).status).toBe(404);
    expectNoProblems(problems, []);
  });

  it('shows drafts, scheduled and recent articles on the dashboard, with a New article button', async () => {
    const base = cms.server.url;
    const dated = (await api<{ article: { id: string } }>('POST', '/v1/articles', { title: 'Dated post' })).body.article
      .id;
    const publishAt = new Date(Date.now() + 86_400_000).toISOString();
    expect((await api('POST', `/v1/articles/${dated}/schedule`, { publishAt })).status).toBe(200);
    // More drafts edited after it than a page holds: the dashboard asks the API for the scheduled ones.
    for (let i = 0; i < 101; i++) await api('POST', '/v1/articles', { title: `Later ${String(i).padStart(3, '0')}` });
    const waiting = (await api<{ article: { id: string } }>('POST', '/v1/articles', { title: 'Waiting draft' })).body
      .article.id;
    expect((await api('PATCH', `/v1/articles/${waiting}`, { body: 'Edited last.' })).status).toBe(200);
    const { page, problems } = await newPage(cms);
    await signIn(page, base, EMAIL);
    const overview = page.getByTestId('article-overview');
    const titles = (name: string) => overview.getByRole('list', { name }).getByRole('link').allTextContents();
    await expect.poll(() => titles('Scheduled'), POLL).toEqual(['Dated post']);
    expect((await titles('Drafts'))[0]).toBe('Waiting draft');
    expect(await titles('Drafts')).not.toContain('Dated post');
    expect(await titles('Drafts')).not.toContain('Apple pie');
    expect((await titles('Recently edited'))[0]).toBe('Waiting draft');
    await overview.getByRole('link', { name: 'Waiting draft' }).first().click();
    await page.waitForURL(`${base}/articles/edit?id=${waiting}`, POLL);
    await page.goBack();
    await overview.getByRole('link', { name: 'New article' }).click();
    await page.waitForURL(`${base}/articles/new`, POLL);

    // The list's Scheduled filter: the API's `scheduled=true`; Draft is the offline rest.
    await page.goto(`${base}/articles`);
    const list = page.getByTestId('article-list');
    const listed = () => list.locator('.item-title').allTextContents();
    await page.getByLabel('Status').selectOption({ label: 'Scheduled' });
    await expect.poll(listed, POLL).toEqual(['Dated post']);
    await expect.poll(() => new URL(page.url()).search, POLL).toBe('?status=scheduled');
    expect(await list.getByTestId('article-state').allTextContents()).toEqual(['Scheduled']);
    await page.reload();
    await expect.poll(listed, POLL).toEqual(['Dated post']);
    await page.getByLabel('Search articles').pressSequentially('post');
    await page.getByLabel('Status').selectOption({ label: 'Draft' });
    await expect.poll(() => new URL(page.url()).searchParams.get('status'), POLL).toBe('offline');
    await page.getByText('No articles match these filters.').waitFor(POLL);
    expectNoProblems(problems);
  });
});
