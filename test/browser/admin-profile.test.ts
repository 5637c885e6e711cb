import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
} from './admin-helpers.js';

const OWNER = 'owner@example.com';
const NEW_PASSWORD = 'an entirely new passphrase';

/** The profile screen: own display name and password, in Chromium against the real Node server. */
describe('admin profile', () => {
  let cms: Cms;
  let oldToken: string;
  beforeAll(async () => {
    cms = await startCms();
    oldToken = await createOwner(cms.server, OWNER);
  });
  afterAll(async () => {
    await cms?.stop();
  });

  it('changes the display name and the password; this session goes on, older tokens are refused', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, OWNER);
    await page.getByTestId('whoami').click();
    await page.getByRole('heading', { name: 'Your profile' }).waitFor(POLL);
    await expect.poll(() => page.getByRole('textbox', { name: 'Display name' }).inputValue(), POLL).toBe('Olive Owner');

    await page.getByRole('textbox', { name: 'Display name' }).fill('Olive O.');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByTestId('name-status').getByText('Your display name is now Olive O.').waitFor(POLL);
    await expect.poll(() => page.getByTestId('whoami').textContent(), POLL).toContain('Olive O.');

    // Checked before sending: two different new passwords, a short one.
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(`${NEW_PASSWORD}!`);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').getByText('The two new passwords differ.').waitFor(POLL);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('profile-confirm');
    expect(await page.getByLabel('New password again').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('New password again').fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').getByText('The new password must be at least 12 characters.').waitFor(POLL);

    // The API refuses a wrong current password; the field says so.
    await page.getByLabel('Current password').fill('not my password at all');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').getByText('The current password is wrong.').waitFor(POLL);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('profile-currentPassword');

    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page
      .getByTestId('password-status')
      .getByText('Password changed. Other sessions are signed out.')
      .waitFor(POLL);
    expect(await page.getByLabel('Current password').inputValue()).toBe('');
    await expectNoSideScroll(page);
    await screenshots(page, 'profile');

    // This tab holds the new token: a reload stays signed in. The token from before is refused.
    await page.reload();
    await page.getByRole('heading', { name: 'Your profile' }).waitFor(POLL);
    await expect.poll(() => page.getByTestId('whoami').textContent(), POLL).toContain('Olive O.');
    expect((await apiCall(cms.server, 'GET', '/v1/auth/me', oldToken)).status).toBe(401);

    // Signing out from a page opened by a full load ends on the plain login page (no `?next=` back to it).
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/login`, POLL);
    // Once the sign-in form is there the page has settled on its address; no `?next=` was added meanwhile.
    await page.getByRole('button', { name: 'Sign in' }).waitFor(POLL);
    await page.getByLabel('Password').waitFor(POLL);
    expect(page.url()).toBe(`${base}/login`);
    await signIn(page, base, OWNER, NEW_PASSWORD);
    expect(await page.getByTestId('whoami').textContent()).toContain('Olive O.');
    expectNoProblems(problems, [{ path: /^\/v1\/auth\/me$/, status: 400 }]);
  });
});
