import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainNav } from '../support/browser.js';
import {
  apiCall,
  type Cms,
  createAdmin,
  createOwner,
  expectNoProblems,
  expectNoSideScroll,
  newPage,
  POLL,
  screenshots,
  signIn,
  startCms,
} from './admin-helpers.js';

const OWNER = 'owner@example.com';
const ADMIN = 'admin@example.com';

/** Integrations (API keys) in Chromium against the real Node server. */
describe('admin integrations', () => {
  let cms: Cms;
  let token: string;
  beforeAll(async () => {
    cms = await startCms();
    token = await createOwner(cms.server, OWNER);
  });
  afterAll(async () => {
    await cms?.stop();
  });

  it('creates a key whose secret is shown once and copied, shows its last use, and revokes it', async () => {
    const base = cms.server.url;
    const { page, context, problems } = await newPage(cms);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await signIn(page, base, OWNER);
    await (await mainNav(page)).getByRole('link', { name: 'Integrations' }).click();
    await page.getByText('No API keys yet.').waitFor(POLL);

    // Checked before sending.
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('alert').getByText('Give the key a name (what uses it).').waitFor(POLL);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('key-name');
    await page.getByLabel('Name').fill('Static site build');
    await page.getByLabel(/^content:read/).uncheck();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('alert').getByText('Choose at least one scope.').waitFor(POLL);

    await page.getByLabel(/^content:read/).check();
    await page.getByLabel(/^media:write/).check();
    const nextYear = `${new Date().getUTCFullYear() + 1}-06-30`;
    await page.getByLabel(/^Expires after/).fill(nextYear);
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByTestId('new-secret');
    await shown.waitFor(POLL);
    const secret = await page.getByLabel('Secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^cms_/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('secret-heading');
    await shown.getByRole('button', { name: 'Copy' }).click();
    await page.getByTestId('copy-status').getByText('Copied to the clipboard.').waitFor(POLL);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    const row = page.getByTestId('key-list').locator(':scope > li', { hasText: 'Static site build' });
    expect(await row.locator('.scopes').textContent()).toBe('content:readmedia:write');
    expect(await row.getByTestId('key-dates').textContent()).toContain('last used never');
    expect(await row.getByTestId('key-dates').textContent()).toContain('expires');
    const stored = (
      await apiCall<{ items: { name: string; prefix: string; expiresAt: string }[] }>(
        cms.server,
        'GET',
        '/v1/api-keys',
        token,
      )
    ).body.items;
    expect(stored).toHaveLength(1);
    expect(stored[0]!.expiresAt).toBe(`${nextYear}T23:59:59.999Z`);
    expect(secret.startsWith(stored[0]!.prefix)).toBe(true);
    expect(await row.textContent()).toContain(stored[0]!.prefix);
    await expectNoSideScroll(page);
    await screenshots(page, 'integrations');

    // The form is ready for the next key: empty, read access ticked again.
    expect(await page.getByLabel('Name').inputValue()).toBe('');
    expect(await page.getByLabel(/^content:read/).isChecked()).toBe(true);
    expect(await page.getByLabel(/^media:write/).isChecked()).toBe(false);
    await shown.getByRole('button', { name: 'I have stored it' }).click();
    await expect.poll(() => page.getByTestId('new-secret').count(), POLL).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('key-name');

    // The key works; the list then tells when it was last used, and the secret is never shown again.
    expect((await apiCall(cms.server, 'GET', '/v1/articles?status=offline', secret)).status).toBe(200);
    await page.reload();
    await expect.poll(() => row.getByTestId('key-dates').textContent(), POLL).not.toContain('last used never');
    expect(await page.content()).not.toContain(secret);

    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByTestId('keys-status').getByText('Static site build was revoked.').waitFor(POLL);
    expect((await apiCall(cms.server, 'GET', '/v1/articles?status=offline', secret)).status).toBe(401);
    await page.getByText('No API keys yet.').waitFor(POLL);
    expectNoProblems(problems);
  });

  it('shows an admin neither the screen in the navigation nor the keys', async () => {
    await createAdmin(cms.server, token, ADMIN);
    const { page, problems } = await newPage(cms);
    await signIn(page, cms.server.url, ADMIN);
    // Wait until the session's links are drawn, or "no Integrations link" would hold before any link exists.
    const nav = await mainNav(page);
    await nav.getByRole('link', { name: 'Articles' }).waitFor(POLL);
    expect(await nav.getByRole('link', { name: 'Integrations' }).count()).toBe(0);
    await page.goto(`${cms.server.url}/integrations`);
    await page.getByText('Only the owner manages API keys.').waitFor(POLL);
    expectNoProblems(problems);
  });
});
