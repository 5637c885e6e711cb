import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('shows the status, that no release key is trusted, and the reasons the API gives for refusing an apply', async () => {
    const base = cms.server.url;
    const version = (await (await fetch(`${base}/v1/system/version`)).json()) as { version: string };
    const { page, problems } = await newPage(cms);
    await signIn(page, base, OWNER);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
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
    const alert = page.getByTestId('update-panel').getByRole('alert');

    // Restart to apply with nothing staged: whatever the server says (404 before the route exists,
    // 409 "nothing staged" / "no supervisor" after), the panel says it.
    const direct = await apiCall<{ error: { message: string } }>(cms.server, 'POST', '/v1/system/update/apply', token);
    expect(direct.status).toBeGreaterThanOrEqual(400);
    await page.getByRole('button', { name: 'Restart to apply' }).click();
    await page.getByRole('button', { name: 'Yes, restart' }).click();
    await alert.getByText(/^Restart to apply (is not available on this server|failed): /).waitFor(POLL);
    expect(await alert.textContent()).toContain(direct.body.error.message);

    const directRollback = await apiCall<{ error: { message: string } }>(
      cms.server,
      'POST',
      '/v1/system/update/rollback',
      token,
    );
    await page.getByRole('button', { name: 'Roll back' }).click();
    await page.getByRole('button', { name: 'Yes, roll back' }).click();
    await alert.getByText(/^Roll back (is not available on this server|failed): /).waitFor(POLL);
    expect(await alert.textContent()).toContain(directRollback.body.error.message);
    await expectNoSideScroll(page);
    await screenshots(page, 'settings');
    expectNoProblems(problems, [
      { path: /^\/v1\/system\/update\/apply$/, status: direct.status },
      { path: /^\/v1\/system\/update\/rollback$/, status: directRollback.status },
    ]);
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
