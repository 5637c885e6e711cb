import { describe, expect, it } from 'vitest';
import { mainNav } from '../support/browser.js';
import { ownerCms } from './admin-fixture.js';
import { expectNoProblems, expectNoSideScroll, POLL } from './admin-helpers.js';

const OWNER = 'owner@example.com';
const REFUSED = 'Article URL pattern must be a path starting with / that holds {slug} once, e.g. /blog/{slug}';

interface SiteBody {
  items: { id: string; name: string; urlPattern: string | null }[];
}

/** A site's article URL pattern, set in the admin's Sites form, read back from the API, its feed and its sitemap. */
describe('admin site URL pattern', () => {
  const cms = ownerCms(OWNER);

  const text = async (path: string) => (await fetch(`${cms.server.url}${path}`)).text();

  it('previews the link, refuses a bad pattern at its field, and feeds and sitemaps link by the saved one', async () => {
    const { page, problems } = await cms.signedInPage();
    await (await mainNav(page)).getByRole('link', { name: 'Sites' }).click();
    await page.getByRole('heading', { name: 'New site' }).waitFor(POLL);
    await page.getByText('No sites yet.').waitFor(POLL);

    // The field is labelled, hinted with the API's rule, and previews the link as it is typed.
    const field = page.getByLabel('Article URL pattern (optional)');
    expect(await field.getAttribute('id')).toBe('new-urlPattern');
    expect(await page.locator('#new-urlPattern-hint').textContent()).toContain(
      'a path starting with / that holds {slug} once',
    );
    const preview = page.locator('#new-urlPattern-note');
    expect((await field.getAttribute('aria-describedby'))?.split(' ')).toContain('new-urlPattern-note');
    await page.locator('#new-name').fill('News');
    await page.locator('#new-baseUrl').fill('https://news.example/');
    await expect
      .poll(() => preview.textContent(), POLL)
      .toBe('An article with the slug my-article is linked as https://news.example/my-article');

    // A pattern the API would refuse: named at the field in its label's words, focus there, nothing created.
    await field.fill('blog/{slug}');
    await expect.poll(() => preview.textContent(), POLL).toContain('shows once the pattern is a path with {slug}');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.locator('#new-urlPattern-error').getByText(REFUSED).waitFor(POLL);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('new-urlPattern');
    expect((await cms.api<SiteBody>('GET', '/v1/sites')).body.items).toEqual([]);
    // The words at the field are the API's own 400 for that pattern, with the field's label for its key.
    const refused = await cms.api<{ error: { code: string; issues: { path: string; message: string }[] } }>(
      'POST',
      '/v1/sites',
      { name: 'News', baseUrl: 'https://news.example/', urlPattern: 'blog/{slug}' },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.issues).toEqual([
      { path: 'urlPattern', message: REFUSED.replace('Article URL pattern', 'urlPattern') },
    ]);

    await field.fill('/blog/{slug}.html');
    await expect
      .poll(() => preview.textContent(), POLL)
      .toBe('An article with the slug my-article is linked as https://news.example/blog/my-article.html');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.getByTestId('catalog-status').getByText('News was created.').waitFor(POLL);
    const created = (await cms.api<SiteBody>('GET', '/v1/sites')).body.items;
    expect(created).toMatchObject([{ name: 'News', urlPattern: '/blog/{slug}.html' }]);
    const siteId = created[0]!.id;

    // An online article on the site: its feed and sitemap link it by the pattern.
    const art = await cms.api<{ article: { id: string; slug: string } }>('POST', '/v1/articles', {
      title: 'Pattern post',
      siteId,
    });
    expect(art.status).toBe(201);
    const { id: articleId, slug } = art.body.article;
    expect((await cms.api('POST', `/v1/articles/${articleId}/publish`)).status).toBe(200);
    expect(await text(`/v1/sites/${siteId}/feed.xml`)).toContain(`<link>https://news.example/blog/${slug}.html</link>`);
    expect(await text(`/v1/sites/${siteId}/sitemap.xml`)).toContain(
      `<loc>https://news.example/blog/${slug}.html</loc>`,
    );

    // Editing: the saved pattern is there with its preview; a bad one is refused at the field; a new one is saved.
    const list = page.getByTestId('catalog-list');
    await list.getByRole('button', { name: 'Edit News' }).click();
    const edit = page.getByRole('form', { name: 'Edit News' });
    const editField = edit.getByLabel('Article URL pattern (optional)');
    expect(await editField.inputValue()).toBe('/blog/{slug}.html');
    const editPreview = page.locator(`#e-${siteId}-urlPattern-note`);
    expect(await editPreview.textContent()).toBe(
      'An article with the slug my-article is linked as https://news.example/blog/my-article.html',
    );
    await editField.fill('/posts/{slug}/{slug}');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.locator(`#e-${siteId}-urlPattern-error`).getByText(REFUSED).waitFor(POLL);
    expect(await editField.getAttribute('aria-invalid')).toBe('true');
    expect((await cms.api<SiteBody>('GET', '/v1/sites')).body.items[0]?.urlPattern).toBe('/blog/{slug}.html');

    await edit.getByLabel('Base URL').fill('https://www.example.org');
    await editField.fill('/posts/{slug}');
    await expect
      .poll(() => editPreview.textContent(), POLL)
      .toBe('An article with the slug my-article is linked as https://www.example.org/posts/my-article');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('catalog-status').getByText('News was saved.').waitFor(POLL);
    expect((await cms.api<SiteBody>('GET', '/v1/sites')).body.items[0]?.urlPattern).toBe('/posts/{slug}');
    expect(await text(`/v1/sites/${siteId}/feed.xml`)).toContain(`<link>https://www.example.org/posts/${slug}</link>`);
    expect(await text(`/v1/sites/${siteId}/sitemap.xml`)).toContain(`<loc>https://www.example.org/posts/${slug}</loc>`);

    // Emptied, the pattern is cleared: articles are at /{slug} again.
    await list.getByRole('button', { name: 'Edit News' }).click();
    await edit.getByLabel('Article URL pattern (optional)').fill('');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await cms.api<SiteBody>('GET', '/v1/sites')).body.items[0]?.urlPattern, POLL)
      .toBeNull();
    await page.getByTestId('catalog-status').getByText('News was saved.').waitFor(POLL);
    expect(await text(`/v1/sites/${siteId}/sitemap.xml`)).toContain(`<loc>https://www.example.org/${slug}</loc>`);
    await expectNoSideScroll(page);
    expectNoProblems(problems);
  });
});
