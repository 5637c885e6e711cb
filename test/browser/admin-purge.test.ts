import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainNav } from '../support/browser.js';
import { PNG_1x1 } from '../support/images.js';
import {
  apiCall,
  type Cms,
  createOwner,
  expectNoProblems,
  expectNoSideScroll,
  newPage,
  PASSWORD,
  POLL,
  screenshots,
  signIn,
  startCms,
  waitForMailLink,
} from './admin-helpers.js';

const OWNER = 'owner@example.com';
const ADMIN = 'admin@example.com';

interface Image {
  id: string;
  filename: string;
}

/** Media purge: settings, dry-run preview, real run, history — in Chromium against the real Node server. */
describe('admin media purge', () => {
  let cms: Cms;
  let token: string;
  beforeAll(async () => {
    cms = await startCms();
    token = await createOwner(cms.server, OWNER);
  });
  afterAll(async () => {
    await cms?.stop();
  });

  async function uploadPng(articleId: string, name: string): Promise<Image> {
    const form = new FormData();
    form.append('file', new Blob([PNG_1x1], { type: 'image/png' }), name);
    const res = await fetch(`${cms.server.url}/v1/articles/${articleId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { image: Image }).image;
  }

  it('saves the settings, previews exactly what a purge would remove, purges, and lists the runs', async () => {
    const base = cms.server.url;
    const art = await apiCall<{ article: { id: string } }>(cms.server, 'POST', '/v1/articles', token, {
      title: 'Twice the same dot',
    });
    const older = await uploadPng(art.body.article.id, 'first.png');
    const newer = await uploadPng(art.body.article.id, 'second.png');

    const { page, problems } = await newPage(cms);
    await signIn(page, base, OWNER);
    await (await mainNav(page)).getByRole('link', { name: 'Media' }).click();
    await page.getByRole('link', { name: 'Purge settings and runs' }).click();
    await page.getByRole('heading', { name: 'Media purge' }).waitFor(POLL);
    const form = page.getByTestId('purge-settings');
    await form.waitFor(POLL);
    expect(await page.getByTestId('purge-times').textContent()).toContain('never');
    await page.getByText('No purge has run yet.').waitFor(POLL);

    // The schema's limits, said at the field; then a good save.
    await page.getByLabel('Every (hours)').fill('0');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('A whole number of hours from 1 to 720.').waitFor(POLL);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('purge-intervalHours');
    // (Not scheduled yet: the server's scheduler would purge on its next tick.)
    await page.getByLabel('Every (hours)').fill('48');
    await page.getByLabel('Scheduled runs only report (dry run)').check();
    await page.getByLabel('Remove orphans (files without an image, images without a file)').uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByTestId('purge-settings-status').getByText('Purge settings saved.').waitFor(POLL);
    const saved = await apiCall<{ settings: Record<string, unknown> }>(
      cms.server,
      'GET',
      '/v1/media/purge/settings',
      token,
    );
    expect(saved.body.settings).toMatchObject({
      enabled: false,
      intervalHours: 48,
      dryRun: true,
      removeDuplicates: true,
      removeOrphans: false,
    });
    expect(await page.getByTestId('purge-times').textContent()).toContain('none (not scheduled)');

    // Dry run: the duplicate, by name, and what is kept; nothing removed yet.
    await page.getByRole('button', { name: 'Preview (dry run)' }).click();
    const preview = page.getByTestId('purge-preview');
    await preview.waitFor(POLL);
    await page.getByTestId('purge-run-status').getByText('Preview: a purge would remove 1 item').waitFor(POLL);
    expect(await preview.textContent()).toContain(`${newer.filename} → kept ${older.filename}`);
    const media = async () =>
      (await apiCall<{ items: Image[] }>(cms.server, 'GET', '/v1/media', token)).body.items.map((i) => i.id).sort();
    expect(await media()).toEqual([older.id, newer.id].sort());
    await expect.poll(() => page.getByTestId('purge-runs').locator(':scope > li').count(), POLL).toBe(1);
    await expectNoSideScroll(page);
    await screenshots(page, 'media-purge-preview');

    // The real run, confirmed.
    await preview.getByRole('button', { name: 'Purge now' }).click();
    await preview.getByRole('button', { name: 'Yes, purge' }).click();
    await page
      .getByTestId('purge-run-status')
      .getByText(/^Purged: 1 item, .* removed\.$/)
      .waitFor(POLL);
    expect(await page.getByTestId('purge-result').textContent()).toContain(newer.filename);
    expect(await media()).toEqual([older.id]);
    const runs = page.getByTestId('purge-runs').locator(':scope > li');
    await expect.poll(() => runs.count(), POLL).toBe(2);
    expect(await runs.first().locator('summary').textContent()).toMatch(/manual · purge · succeeded · removed 1 item/);
    expect(await runs.nth(1).locator('summary').textContent()).toMatch(
      /manual · dry run · succeeded · would remove 1 item/,
    );
    // A run's details open by keyboard.
    await runs.first().locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => runs.first().textContent(), POLL).toContain(`kept ${older.filename}`);
    expect(await page.getByTestId('purge-times').textContent()).not.toContain('never');

    // Nothing left to purge: the preview says so and offers no purge.
    await page.getByRole('button', { name: 'Preview (dry run)' }).click();
    await page.getByTestId('purge-run-status').getByText('Preview: a purge would remove nothing.').waitFor(POLL);
    expect(await preview.textContent()).toContain('Nothing would be removed.');
    expect(await preview.getByRole('button', { name: 'Purge now' }).count()).toBe(0);
    await screenshots(page, 'media-purge');

    // Scheduled from now on: the next run is named (and the scheduler may add dry runs to the history).
    await page.getByLabel('Purge on a schedule').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByTestId('purge-settings-status').getByText('Purge settings saved.').waitFor(POLL);
    // Polled: the status line and the times can render in separate passes.
    await expect.poll(() => page.getByTestId('purge-times').textContent(), POLL).not.toContain('none (not scheduled)');
    expect(
      (await apiCall<{ settings: { enabled: boolean } }>(cms.server, 'GET', '/v1/media/purge/settings', token)).body
        .settings.enabled,
    ).toBe(true);
    expectNoProblems(problems);
  });

  it('shows an admin the settings and the history, read-only, without a purge button', async () => {
    const base = cms.server.url;
    const invite = await apiCall(cms.server, 'POST', '/v1/user/invite', token, { email: ADMIN, role: 'admin' });
    expect(invite.status).toBe(201);
    const code = new URL(await waitForMailLink(cms.server, '/accept-invite', ADMIN), base).searchParams.get('code');
    expect(
      (await apiCall(cms.server, 'POST', '/v1/auth/invitation/accept', '', { code, password: PASSWORD })).status,
    ).toBe(201);

    const { page, problems } = await newPage(cms);
    await signIn(page, base, ADMIN);
    await page.goto(`${base}/media/purge`);
    await page.getByText('Only the owner changes the purge settings and runs a purge.').waitFor(POLL);
    await page.getByTestId('purge-settings').waitFor(POLL);
    expect(await page.getByLabel('Every (hours)').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Preview (dry run)' }).count()).toBe(0);
    await expect
      .poll(() => page.getByTestId('purge-runs').locator(':scope > li').count(), POLL)
      .toBeGreaterThanOrEqual(3);
    expect(await page.getByTestId('purge-runs').textContent()).toContain('manual · purge · succeeded · removed 1 item');
    expectNoProblems(problems);
  });
});
