import { describe, expect, it } from 'vitest';
import { CATALOGS } from '../../admin-qwik/src/lib/catalog.js';
import { formBody } from '../../admin-qwik/src/lib/catalog-form.js';
import { mainNav } from '../support/browser.js';
import { ownerCms } from './admin-fixture.js';
import { expectNoProblems, expectNoSideScroll, POLL, screenshots } from './admin-helpers.js';
import { CATALOG_KINDS, fillForm, labelOf, sampleBody, sampleValues, shownValue } from './catalog-kinds.js';

const OWNER = 'owner@example.com';

type Items = { items: Record<string, unknown>[] };

/** Every catalogue kind of admin-qwik/src/lib/catalog.ts, from its entry alone: a new kind is tested here as it is added. */
describe('admin catalogues, every kind', () => {
  const cms = ownerCms(OWNER);

  it('lists the catalogues right after Articles in the navigation and on the dashboard, each with its summary', async () => {
    const { page, problems } = await cms.signedInPage();
    await page.goto(`${cms.server.url}/`);
    const titles = CATALOG_KINDS.map((k) => CATALOGS[k].title);
    const links = (await mainNav(page)).getByRole('link');
    const names = await links.allTextContents();
    expect(names.slice(names.indexOf('Articles') + 1, names.indexOf('Articles') + 1 + titles.length)).toEqual(titles);
    const cards = page.getByRole('region', { name: 'Screens' });
    for (const kind of CATALOG_KINDS) {
      const card = cards.getByRole('link', { name: new RegExp(`^${CATALOGS[kind].title}`) });
      expect(await card.getAttribute('href')).toBe(CATALOGS[kind].href);
      expect(await card.textContent()).toContain(CATALOGS[kind].summary);
    }
    expectNoProblems(problems);
  });

  for (const kind of CATALOG_KINDS) {
    const def = CATALOGS[kind];
    const titleField = def.titleField ?? 'name';

    it(`${def.title}: opens from the navigation, refuses an empty form at its fields, creates, edits and deletes an item`, async () => {
      const { page, problems } = await cms.signedInPage();
      await (await mainNav(page)).getByRole('link', { name: def.title, exact: true }).click();
      await page.waitForURL(`${cms.server.url}${def.href}`, POLL);
      await page.getByRole('heading', { level: 1, name: def.title }).waitFor(POLL);
      const none = page.getByText(`No ${def.title.toLowerCase()} yet.`);
      await none.waitFor(POLL);
      const create = page.getByRole('region', { name: `New ${def.noun}` });

      // Each field by its label, its hint tied to it; a select offers its options, "Not set" first when optional.
      for (const f of def.fields) {
        const field = create.getByLabel(labelOf(f), { exact: true });
        expect(await field.getAttribute('id')).toBe(`new-${f.name}`);
        if (f.hint) {
          expect((await field.getAttribute('aria-describedby'))?.split(' ')).toContain(`new-${f.name}-hint`);
          expect(await page.locator(`#new-${f.name}-hint`).textContent()).toBe(f.hint);
        }
        if (f.type === 'select') {
          const options = [...(f.required ? [] : ['Not set']), ...f.options.map((o) => o.label)];
          expect(await field.locator('option').allTextContents()).toEqual(options);
        }
      }

      // Nothing typed: the API's rules, checked before sending, mark every required field; focus goes to one.
      const required = def.fields.filter((f) => f.required && f.type !== 'select').map((f) => `new-${f.name}`);
      if (required.length > 0) {
        await create.getByRole('button', { name: `Create ${def.noun}` }).click();
        await create.getByRole('alert').getByText('Please correct the marked fields.').waitFor(POLL);
        for (const id of required) expect(await page.locator(`#${id}`).getAttribute('aria-invalid')).toBe('true');
        await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBeOneOf(required);
      }

      const values = sampleValues(def, 1);
      const title = values[titleField]!;
      await fillForm(create, def, values);
      await create.getByRole('button', { name: `Create ${def.noun}` }).click();
      await page.getByTestId('catalog-status').getByText(`${title} was created.`).waitFor(POLL);
      const list = page.getByTestId('catalog-list');
      await expect.poll(() => list.locator('li').count(), POLL).toBe(1);
      expect(await none.count()).toBe(0);
      for (const f of def.fields)
        if (f.type !== 'select') expect(await create.locator(`[name="${f.name}"]`).inputValue()).toBe('');
      // Stored as the form sent it; the list shows its title and its meta field.
      const [stored] = (await cms.api<Items>('GET', def.endpoint)).body.items;
      expect(stored).toMatchObject(formBody(def.fields, values));
      expect(await list.locator('.item-title').textContent()).toBe(title);
      expect(await list.locator('.catalog-meta').textContent()).toBe(shownValue(stored![def.metaField]));

      // Edit in place: focus on the first field, Escape backs out; the form shows the item as stored.
      await list.getByRole('button', { name: `Edit ${title}` }).click();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('name')), POLL)
        .toBe(def.fields[0]!.name);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent), POLL).toBe('Edit');
      await list.getByRole('button', { name: `Edit ${title}` }).click();
      const edit = page.getByRole('form', { name: `Edit ${title}` });
      for (const f of def.fields) {
        expect(await edit.locator(`[name="${f.name}"]`).inputValue(), f.name).toBe(shownValue(stored![f.name]));
      }
      // A new title, and each select's last option.
      const changed: Record<string, string> = { [titleField]: `${title}-2` };
      for (const f of def.fields) if (f.type === 'select') changed[f.name] = String(f.options.at(-1)!.value);
      await fillForm(edit, def, changed);
      await edit.getByRole('button', { name: 'Save' }).click();
      await page.getByTestId('catalog-status').getByText(`${title}-2 was saved.`).waitFor(POLL);
      const [saved] = (await cms.api<Items>('GET', def.endpoint)).body.items;
      const shown = Object.fromEntries(def.fields.map((f) => [f.name, shownValue(stored![f.name])]));
      expect(saved).toMatchObject(formBody(def.fields, { ...shown, ...changed }));

      // Deleted after the question, which names it.
      const row = list.locator('li', { hasText: `${title}-2` });
      await row.getByRole('button', { name: 'Delete' }).click();
      await row.getByRole('group', { name: `Delete the ${def.noun} ${title}-2?` }).waitFor(POLL);
      await row.getByRole('button', { name: 'Yes, delete' }).click();
      await page.getByTestId('catalog-status').getByText(`${title}-2 was deleted.`).waitFor(POLL);
      await expect.poll(() => list.locator('li').count(), POLL).toBe(0);
      await none.waitFor(POLL);
      expect((await cms.api<Items>('GET', def.endpoint)).body.items).toEqual([]);
      expectNoProblems(problems);
    });
  }

  it('moves from one catalogue to another without a page load, each with its own list and title', async () => {
    const [first, second] = CATALOG_KINDS.map((k) => CATALOGS[k]);
    expect((await cms.api('POST', first!.endpoint, sampleBody(first!, 2))).status).toBe(201);
    const { page, problems } = await cms.signedInPage();
    const nav = await mainNav(page);
    await nav.getByRole('link', { name: first!.title, exact: true }).click();
    const list = page.getByTestId('catalog-list');
    await expect.poll(() => list.locator('li').count(), POLL).toBe(1);
    // Marks the document: a page load would drop it.
    await page.evaluate(() => Object.assign(window, { samePage: true }));

    await (await mainNav(page)).getByRole('link', { name: second!.title, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: second!.title }).waitFor(POLL);
    await page.getByText(`No ${second!.title.toLowerCase()} yet.`).waitFor(POLL);
    expect(await list.locator('li').count()).toBe(0);
    await page.getByRole('region', { name: `New ${second!.noun}` }).waitFor(POLL);
    await expect.poll(() => page.title(), POLL).toContain(second!.title);

    await (await mainNav(page)).getByRole('link', { name: first!.title, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: first!.title }).waitFor(POLL);
    await expect.poll(() => list.locator('li').count(), POLL).toBe(1);
    expect(await page.evaluate(() => (window as { samePage?: boolean }).samePage)).toBe(true);
    const id = (await cms.api<Items>('GET', first!.endpoint)).body.items[0]!.id as string;
    expect((await cms.api('DELETE', `${first!.endpoint}/${id}`)).status).toBe(204);
    expectNoProblems(problems);
  });
});

/** Sites and authors screens in Chromium against the real Node server. */
describe('admin sites and authors', () => {
  const cms = ownerCms(OWNER);

  it('creates, validates, edits, pages and deletes sites; a site that articles use is refused with the reason', async () => {
    const { page, problems } = await cms.signedInPage();
    await (await mainNav(page)).getByRole('link', { name: 'Sites' }).click();
    await page.getByRole('heading', { name: 'New site' }).waitFor(POLL);
    await page.getByText('No sites yet.').waitFor(POLL);

    // The API's own rule, checked before sending: not an http(s) URL.
    await page.locator('#new-name').fill('Main site');
    await page.locator('#new-baseUrl').fill('ftp://example.com');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.getByRole('alert').getByText('Please correct the marked fields.').waitFor(POLL);
    expect(await page.locator('#new-baseUrl').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#new-baseUrl-error').textContent()).toContain('http(s) URL');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('new-baseUrl');

    await page.getByLabel('Base URL').fill('https://example.com');
    await page.getByLabel('Description (optional)').fill('The main one.');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.getByTestId('catalog-status').getByText('Main site was created.').waitFor(POLL);
    const list = page.getByTestId('catalog-list');
    await expect.poll(() => list.locator('li').count(), POLL).toBe(1);
    expect(await list.textContent()).toContain('https://example.com');
    expect(await page.locator('#new-name').inputValue()).toBe('');

    // Edit in place; Escape backs out; then save a new name.
    await list.getByRole('button', { name: 'Edit Main site' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name')), POLL).toBe('name');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent), POLL).toBe('Edit');
    await list.getByRole('button', { name: 'Edit Main site' }).click();
    const edit = page.getByRole('form', { name: 'Edit Main site' });
    await edit.getByLabel('Name').fill('Main site (renamed)');
    await edit.getByLabel('Description (optional)').fill('');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('catalog-status').getByText('Main site (renamed) was saved.').waitFor(POLL);
    const saved = await cms.api<{ items: { name: string; description: string | null }[] }>('GET', '/v1/sites');
    expect(saved.body.items[0]).toMatchObject({ name: 'Main site (renamed)', description: null });

    // An article on that site: deleting the site is refused with the API's 409, explained.
    const siteId = (saved.body.items[0] as unknown as { id: string }).id;
    const art = await cms.api<{ article: { id: string } }>('POST', '/v1/articles', {
      title: 'On the site',
      siteId,
    });
    expect(art.status).toBe(201);
    const row = list.locator('li', { hasText: 'Main site (renamed)' });
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await page
      .getByRole('alert')
      .getByText('Main site (renamed) was not deleted: This site cannot be deleted: articles use it')
      .waitFor(POLL);
    expect(await list.locator('li').count()).toBe(1);
    await expectNoSideScroll(page);
    await screenshots(page, 'sites');

    // Paging: 21 more sites, 20 on the first page, the rest by "Load more".
    for (let i = 1; i <= 21; i++) {
      const r = await cms.api('POST', '/v1/sites', {
        name: `Site ${String(i).padStart(2, '0')}`,
        baseUrl: `https://s${i}.example.com`,
      });
      expect(r.status).toBe(201);
    }
    await page.reload();
    await expect.poll(() => list.locator('li').count(), POLL).toBe(20);
    await page.getByRole('button', { name: 'Load more sites' }).click();
    await expect.poll(() => list.locator('li').count(), POLL).toBe(22);
    expect(await page.getByRole('button', { name: 'Load more sites' }).count()).toBe(0);

    // A site no article uses goes, after the confirmation.
    const unused = list.locator('li', { hasText: 'Site 07' });
    await unused.getByRole('button', { name: 'Delete' }).click();
    await unused.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByTestId('catalog-status').getByText('Site 07 was deleted.').waitFor(POLL);
    await expect.poll(() => list.locator('li').count(), POLL).toBe(21);
    expectNoProblems(problems, [{ path: /^\/v1\/sites\/[0-9a-f-]+$/, status: 409 }]);
  });

  it('creates an author with a slug made from the name, edits it, and refuses to delete one that articles name', async () => {
    const { page, problems } = await cms.signedInPage();
    await (await mainNav(page)).getByRole('link', { name: 'Authors' }).click();
    await page.getByRole('heading', { name: 'New author' }).waitFor(POLL);

    await page.locator('#new-name').fill('Ada Lovelace');
    await page.locator('#new-bio').fill('Wrote the first program.');
    await page.getByRole('button', { name: 'Create author' }).click();
    await page.getByTestId('catalog-status').getByText('Ada Lovelace was created.').waitFor(POLL);
    const list = page.getByTestId('catalog-list');
    await expect.poll(() => list.textContent(), POLL).toContain('ada-lovelace');

    // A slug the API would refuse is named at its field.
    await page.locator('#new-name').fill('Grace Hopper');
    await page.locator('#new-slug').fill('Grace Hopper');
    await page.getByRole('button', { name: 'Create author' }).click();
    expect(await page.locator('#new-slug-error').textContent()).toContain('lower-case');
    await page.locator('#new-slug').fill('grace');
    await page.getByRole('button', { name: 'Create author' }).click();
    await page.getByTestId('catalog-status').getByText('Grace Hopper was created.').waitFor(POLL);

    // The same slug twice: the API's answer is shown.
    await page.locator('#new-name').fill('Another Grace');
    await page.locator('#new-slug').fill('grace');
    await page.getByRole('button', { name: 'Create author' }).click();
    await page.getByRole('alert').first().waitFor(POLL);
    expect(await list.locator('li').count()).toBe(2);

    const authors = await cms.api<{ items: { id: string; name: string }[] }>('GET', '/v1/authors');
    const ada = authors.body.items.find((a) => a.name === 'Ada Lovelace')!;
    expect((await cms.api('POST', '/v1/articles', { title: 'By Ada', authorIds: [ada.id] })).status).toBe(201);

    await list.getByRole('button', { name: 'Edit Ada Lovelace' }).click();
    const edit = page.getByRole('form', { name: 'Edit Ada Lovelace' });
    await edit.getByLabel('Avatar address (optional)').fill('https://example.com/ada.png');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('catalog-status').getByText('Ada Lovelace was saved.').waitFor(POLL);
    const adaNow = await cms.api<{ author: { avatarUrl: string | null; slug: string } }>(
      'GET',
      `/v1/authors/${ada.id}`,
    );
    expect(adaNow.body.author).toMatchObject({ avatarUrl: 'https://example.com/ada.png', slug: 'ada-lovelace' });

    const row = list.locator('li', { hasText: 'Ada Lovelace' });
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await page
      .getByRole('alert')
      .getByText(/^Ada Lovelace was not deleted: .*articles/)
      .waitFor(POLL);

    const grace = list.locator('li', { hasText: 'Grace Hopper' });
    await grace.getByRole('button', { name: 'Delete' }).click();
    await grace.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByTestId('catalog-status').getByText('Grace Hopper was deleted.').waitFor(POLL);
    await expect.poll(() => list.locator('li').count(), POLL).toBe(1);
    await expectNoSideScroll(page);
    await screenshots(page, 'authors');
    expectNoProblems(problems, [
      { path: /^\/v1\/authors$/, status: 409 },
      { path: /^\/v1\/authors\/[0-9a-f-]+$/, status: 409 },
    ]);
  });
});
