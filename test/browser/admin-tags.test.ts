import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainNav } from '../support/browser.js';
import {
  apiCall,
  type Cms,
  createOwner,
  editorSettings,
  expectNoProblems,
  expectNoSideScroll,
  newPage,
  POLL,
  screenshots,
  signIn,
  startCms,
} from './admin-helpers.js';

const OWNER = 'owner@example.com';

type TagRef = { id: string; name: string; slug: string };

/** The Tags screen and the editor's tag picker, in Chromium against the real Node server. */
describe('admin tags', () => {
  let cms: Cms;
  let token: string;
  beforeAll(async () => {
    cms = await startCms();
    token = await createOwner(cms.server, OWNER);
  });
  afterAll(async () => {
    await cms?.stop();
  });

  const tagsOf = async (articleId: string) =>
    (await apiCall<{ article: { tags: TagRef[] } }>(cms.server, 'GET', `/v1/articles/${articleId}`, token)).body.article
      .tags;

  it('creates (slug made by the API), renames, re-slugs and deletes tags; refusals are shown at their field', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, OWNER);
    await (await mainNav(page)).getByRole('link', { name: 'Tags' }).click();
    await page.getByRole('heading', { name: 'New tag' }).waitFor(POLL);
    await page.getByText('No tags yet.').waitFor(POLL);

    await page.locator('#new-name').fill('Café Society');
    await page.getByRole('button', { name: 'Create tag' }).click();
    await page.getByTestId('catalog-status').getByText('Café Society was created.').waitFor(POLL);
    const list = page.getByTestId('catalog-list');
    await expect.poll(() => list.textContent(), POLL).toContain('cafe-society');

    // A name the API cannot make a slug from: its answer is shown at the slug field.
    await page.locator('#new-name').fill('日本語');
    await page.getByRole('button', { name: 'Create tag' }).click();
    await expect.poll(() => page.locator('#new-slug-error').textContent(), POLL).toContain('give a slug');
    await page.locator('#new-slug').fill('Nihon Go');
    await page.getByRole('button', { name: 'Create tag' }).click();
    await expect.poll(() => page.locator('#new-slug-error').textContent(), POLL).toContain('lower-case');
    await page.locator('#new-slug').fill('nihongo');
    await page.getByRole('button', { name: 'Create tag' }).click();
    await page.getByTestId('catalog-status').getByText('日本語 was created.').waitFor(POLL);

    // A slug in use: the API's 409 is shown.
    await page.locator('#new-name').fill('Cafe society again');
    await page.locator('#new-slug').fill('cafe-society');
    await page.getByRole('button', { name: 'Create tag' }).click();
    await expect.poll(() => page.locator('#new-slug-error').textContent(), POLL).toContain('already in use');
    expect(await list.locator('li').count()).toBe(2);

    // Rename, then change the slug.
    await list.getByRole('button', { name: 'Edit Café Society' }).click();
    const edit = page.getByRole('form', { name: 'Edit Café Society' });
    await edit.getByLabel('Name').fill('Cafés');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('catalog-status').getByText('Cafés was saved.').waitFor(POLL);
    await list.getByRole('button', { name: 'Edit Cafés' }).click();
    await page.getByRole('form', { name: 'Edit Cafés' }).getByLabel('Slug (optional)').fill('cafes');
    await page.getByRole('form', { name: 'Edit Cafés' }).getByRole('button', { name: 'Save' }).click();
    // The status still says so from the rename: the form closing is what says this save is done.
    await page.getByRole('form', { name: 'Edit Cafés' }).waitFor({ ...POLL, state: 'detached' });
    await page.getByTestId('catalog-status').getByText('Cafés was saved.').waitFor(POLL);
    const tags = await apiCall<{ items: TagRef[] }>(cms.server, 'GET', '/v1/tags', token);
    const cafes = tags.body.items.find((t) => t.name === 'Cafés')!;
    expect(cafes.slug).toBe('cafes');

    // Deleting, after the confirmation, takes the tag off its articles.
    const article = await apiCall<{ article: { id: string } }>(cms.server, 'POST', '/v1/articles', token, {
      title: 'Tagged',
      tagIds: [cafes.id],
    });
    expect(article.status).toBe(201);
    const row = list.locator('li', { hasText: 'Cafés' });
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByTestId('catalog-status').getByText('Cafés was deleted.').waitFor(POLL);
    await expect.poll(() => list.locator('li').count(), POLL).toBe(1);
    expect(await tagsOf(article.body.article.id)).toEqual([]);
    await expectNoSideScroll(page);
    await screenshots(page, 'tags');
    expectNoProblems(problems, [
      { path: /^\/v1\/tags$/, status: 400 },
      { path: /^\/v1\/tags$/, status: 409 },
    ]);
  });

  it('picks tags in the editor: existing ones by name, new ones created, Enter adds, removal; saved and shown again', async () => {
    const news = (await apiCall<{ tag: TagRef }>(cms.server, 'POST', '/v1/tags', token, { name: 'News' })).body.tag;
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, OWNER);
    await page.goto(`${base}/articles/new`);
    await page.getByLabel('Title', { exact: true }).fill('With tags');
    await editorSettings(page);
    const picker = page.getByRole('group', { name: 'Tags' });
    await picker.getByText('No tags.').waitFor(POLL);
    await expect.poll(() => page.locator('#tag-options option').count(), POLL).toBeGreaterThan(0);

    // An existing tag by its name (any case), with Enter: added, the field emptied for the next one.
    await picker.getByLabel('Add a tag').fill('news');
    await picker.getByLabel('Add a tag').press('Enter');
    // Not through the group's role: a closed settings drawer hides it, and the list is checked closed too.
    const chosen = page.getByTestId('article-tags');
    await expect.poll(() => chosen.locator('li').allTextContents(), POLL).toEqual(['NewsRemove']);
    expect(await picker.getByLabel('Add a tag').inputValue()).toBe('');
    // A new name becomes a tag first.
    await picker.getByLabel('Add a tag').fill('Release notes');
    await picker.getByRole('button', { name: 'Add tag' }).click();
    await expect.poll(() => chosen.locator('li').count(), POLL).toBe(2);
    await picker.getByLabel('Add a tag').fill('Weather');
    await picker.getByLabel('Add a tag').press('Enter');
    await expect.poll(() => chosen.locator('li').count(), POLL).toBe(3);
    // Twice is refused in words.
    await picker.getByLabel('Add a tag').fill('NEWS');
    await picker.getByLabel('Add a tag').press('Enter');
    await picker.getByRole('alert').getByText('News is already a tag of this article.').waitFor(POLL);
    await picker.getByRole('button', { name: 'Remove the tag Weather' }).click();
    await expect.poll(() => chosen.locator('li').count(), POLL).toBe(2);

    await editorSettings(page, false);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('editor-status').getByText('Saved.').waitFor(POLL);
    await page.waitForURL(/\/articles\/edit\?id=/, POLL);
    const id = new URL(page.url()).searchParams.get('id')!;
    const saved = await tagsOf(id);
    expect(saved.map((t) => t.name)).toEqual(['News', 'Release notes']);
    expect(saved[0]).toEqual({ id: news.id, name: 'News', slug: 'news' });
    expect(saved[1]!.slug).toBe('release-notes');
    // The editor shows what was stored; removing one and saving stores that.
    await expect.poll(() => chosen.locator('li').count(), POLL).toBe(2);
    await editorSettings(page);
    await page.getByRole('button', { name: 'Remove the tag News' }).click();
    await editorSettings(page, false);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('editor-status').getByText('Saved.').waitFor(POLL);
    expect((await tagsOf(id)).map((t) => t.name)).toEqual(['Release notes']);
    await page.reload();
    await expect.poll(() => chosen.locator('li').allTextContents(), POLL).toEqual(['Release notesRemove']);
    // "Weather" was created when it was picked, though the article no longer carries it.
    const all = await apiCall<{ items: TagRef[] }>(cms.server, 'GET', '/v1/tags', token);
    expect(all.body.items.map((t) => t.name)).toContain('Weather');
    await expectNoSideScroll(page);
    await screenshots(page, 'editor-tags');
    expectNoProblems(problems);
  });
});
