import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainNav } from '../support/browser.js';
import { feedOf, makeKey, makeManifest, sign } from '../support/release-fixtures.js';
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

/**
 * The update panel of /settings against the real Node server, whose feed is
 * a local server serving a release signed by a key the build does not pin.
 * The committed build trusts no key (release-keys.json: both retired), so
 * the panel says so plainly and offers no check; the API refuses one too.
 */
describe('admin update panel', () => {
  let cms: Cms;
  let token: string;
  let feed: Server;
  beforeAll(async () => {
    const stranger = await makeKey();
    const entry = await sign(
      makeManifest({
        version: '99.0.0',
        sequence: 5,
        issuedAt: new Date(Date.now() - 3_600_000).toISOString(),
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        minUpdateFrom: '0.0.1',
      }),
      [stranger],
    );
    const body = JSON.stringify(feedOf([entry]));
    feed = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
    cms = await startCms({ UPDATE_FEED_URL: `http://127.0.0.1:${(feed.address() as AddressInfo).port}/feed.json` });
    token = await createOwner(cms.server, OWNER);
  });
  afterAll(async () => {
    await cms?.stop();
    feed?.closeAllConnections();
    await new Promise((resolve) => feed?.close(resolve));
  });

  it('shows the status, that no release key is trusted, and why restart and roll back cannot be pressed', async () => {
    const base = cms.server.url;
    const version = (await (await fetch(`${base}/v1/system/version`)).json()) as { version: string };
    const { page, problems } = await newPage(cms);
    await signIn(page, base, OWNER);
    await (await mainNav(page)).getByRole('link', { name: 'Settings' }).click();
    const facts = page.getByTestId('update-facts');
    await facts.waitFor(POLL);
    expect(await facts.textContent()).toContain(`Running${version.version}`);
    expect(await facts.textContent()).toContain('Last checkednever');

    expect(await page.getByTestId('update-no-key').textContent()).toContain('No trusted release key is configured');
    expect(await page.getByRole('button', { name: 'Check now' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Download + verify + stage' }).isDisabled()).toBe(true);
    const check = await apiCall<{ error: { code: string; message: string } }>(
      cms.server,
      'POST',
      '/v1/system/update/check',
      token,
    );
    expect(check.status).toBe(409);
    expect(check.body.error.message).toContain('No trusted release key is configured');

    // No supervisor runs this server and nothing is staged: both switches are disabled, and say why.
    const direct = await apiCall(cms.server, 'POST', '/v1/system/update/apply', token);
    expect(direct.status).toBeGreaterThanOrEqual(400);
    const directRollback = await apiCall(cms.server, 'POST', '/v1/system/update/rollback', token);
    expect(directRollback.status).toBeGreaterThanOrEqual(400);
    const reason = page.getByTestId('switch-reason');
    await reason.waitFor(POLL);
    expect(await reason.textContent()).toBe(
      'Restart to apply and Roll back are not available: This server was not started by the supervisor, so it cannot restart into another release.',
    );
    for (const name of ['Restart to apply', 'Roll back']) {
      const button = page.getByRole('button', { name });
      expect(await button.isDisabled(), name).toBe(true);
      expect(await button.getAttribute('aria-describedby'), name).toBe('switch-reason');
    }
    await expectNoSideScroll(page);
    await screenshots(page, 'settings');
    expectNoProblems(problems);
  });

  it('shows an admin the status without the owner-only buttons', async () => {
    await createAdmin(cms.server, token, ADMIN);
    const { page, problems } = await newPage(cms);
    await signIn(page, cms.server.url, ADMIN);
    await page.goto(`${cms.server.url}/settings`);
    await page.getByTestId('update-facts').waitFor(POLL);
    await page.getByText('Only the owner checks for, downloads and applies updates.').waitFor(POLL);
    for (const name of ['Check now', 'Download + verify + stage', 'Restart to apply', 'Roll back']) {
      expect(await page.getByRole('button', { name }).count()).toBe(0);
    }
    expectNoProblems(problems);
  });
});
