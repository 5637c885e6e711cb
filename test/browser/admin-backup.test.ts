import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type Cms, createOwner, expectNoProblems, newPage, POLL, signIn, startCms } from './admin-helpers.js';

const OWNER = 'owner@example.com';

/**
 * Settings → Export and import, against two real Node servers: the archive
 * the first one's owner downloads is imported by the second one's owner, and
 * the second then serves the article; an import into an installation with
 * content is refused, with the server's reason on the page.
 */
describe('admin export and import', () => {
  let source: Cms;
  let target: Cms;
  beforeAll(async () => {
    source = await startCms();
    target = await startCms();
  });
  afterAll(async () => {
    await source?.stop();
    await target?.stop();
  });

  it('downloads the archive from one installation and imports it into another', async () => {
    const t1 = await createOwner(source.server, OWNER);
    const created = await apiCall<{ article: { id: string } }>(source.server, 'POST', '/v1/articles', t1, {
      title: 'Moved with the archive',
    });
    const { page, problems } = await newPage(source);
    await signIn(page, source.server.url, OWNER);
    await page.goto(`${source.server.url}/settings`);
    const panel = page.getByTestId('backup-panel');
    await panel.waitFor(POLL);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Export everything' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^edge-cms-export-[\d-]+\.ndjson\.gz$/);
    const file = await download.path();
    await page
      .getByTestId('backup-status')
      .getByText(/^Saved edge-cms-export-/)
      .waitFor(POLL);

    // The same installation has content: its import is refused, with the reason.
    await panel.getByLabel(/Archive to import/).setInputFiles(file);
    await panel.getByRole('button', { name: 'Import', exact: true }).click();
    await panel.getByRole('button', { name: 'Yes, import' }).click();
    await panel
      .getByRole('alert')
      .getByText(/^Import failed: Import needs an installation without content/)
      .waitFor(POLL);
    expectNoProblems(problems, [{ path: /^\/v1\/import$/, status: 409 }]);

    const t2 = await createOwner(target.server, 'second@example.com');
    const other = await newPage(target);
    await signIn(other.page, target.server.url, 'second@example.com');
    await other.page.goto(`${target.server.url}/settings`);
    const there = other.page.getByTestId('backup-panel');
    await there.getByLabel(/Archive to import/).setInputFiles(file);
    await there.getByRole('button', { name: 'Import', exact: true }).click();
    await there.getByRole('button', { name: 'Yes, import' }).click();
    await other.page.getByTestId('backup-status').getByText('Imported 1 article, 0 images.').waitFor(POLL);
    const read = await apiCall<{ article: { title: string } }>(
      target.server,
      'GET',
      `/v1/articles/${created.body.article.id}`,
      t2,
    );
    expect(read.body.article.title).toBe('Moved with the archive');
    expectNoProblems(other.problems);
  });
});
