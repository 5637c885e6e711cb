import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainNav, movedOn } from '../support/browser.js';
import {
  type Cms,
  expectNoProblems,
  mailLink,
  newPage,
  PASSWORD,
  POLL,
  signIn,
  startCms,
  waitForMailLink,
} from './admin-helpers.js';

/** First run, sign out, the session guard and password reset, in Chromium against the real Node server. */
describe('admin accounts', () => {
  let cms: Cms;
  beforeAll(async () => {
    cms = await startCms();
  });
  afterAll(async () => {
    await cms?.stop();
  });

  it('first run: register, cancel, register again, verify by the e-mail link, sign in, see the dashboard, sign out', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);

    // The guard sends a signed-out visitor to the login page, which offers registration while it is open.
    await page.goto(`${base}/articles`);
    // The guard moves on in the client; waiting for that page's load event can see it aborted by the next move.
    await expect.poll(() => page.url(), POLL).toBe(`${base}/login?next=%2Farticles`);
    await page.getByTestId('registration-open').waitFor(POLL);
    await page.getByRole('link', { name: 'Create the first account' }).click();
    // Fill the registration form only once it is there (the login form leaves as it arrives).
    await page.getByRole('button', { name: 'Create account' }).waitFor(POLL);

    await page.getByLabel('E-mail address').fill('first@example.com');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('alert').getByText('at least 12 characters').waitFor(POLL);

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor(POLL);
    expect(await page.getByTestId('check-email').textContent()).toContain('first@example.com');

    // Cancel the unverified registration (two steps), then register for real.
    await page.getByRole('button', { name: 'Cancel registration' }).click();
    await page.getByRole('button', { name: 'Yes, cancel registration' }).click();
    await page.getByText('Your registration was cancelled.').waitFor(POLL);
    await page.getByLabel('E-mail address').fill('owner@example.com');
    await page.getByLabel('Display name (optional)').fill('Olive Owner');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor(POLL);

    // A reload keeps the unverified session on the "check your e-mail" page; the guard keeps it off the rest.
    await page.goto(`${base}/`);
    await page.waitForURL(`${base}/register`, POLL);
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor(POLL);

    // Resending replaces the code: the newest link is the one that works.
    const firstLink = await waitForMailLink(cms.server, '/verify', 'owner@example.com');
    await page.getByRole('button', { name: 'Send the e-mail again' }).click();
    await page.getByRole('status').getByText('A new link is on its way').waitFor(POLL);
    await expect.poll(() => mailLink(cms.server, '/verify', 'owner@example.com'), POLL).not.toBe(firstLink);
    const link = mailLink(cms.server, '/verify', 'owner@example.com');
    await page.goto(`${base}${link}`);
    await page.getByText('Your e-mail address is verified.').waitFor(POLL);
    await page.getByRole('link', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${base}/login`, POLL);
    await page.getByRole('button', { name: 'Sign in' }).waitFor(POLL);
    // Registration is closed now.
    await page.getByLabel('E-mail address').fill('owner@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The move to the dashboard closes a phone's menu: open it once the move has finished.
    await page.waitForURL(`${base}/`, POLL);
    await movedOn(page, 'Sign in');
    const nav = await mainNav(page);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), POLL).toBe('Edge CMS');
    expect(await page.getByTestId('whoami').textContent()).toContain('Olive Owner');
    await nav.getByRole('link', { name: 'Users' }).waitFor(POLL);
    expect(await page.getByTestId('registration-open').count()).toBe(0);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/login`, POLL);
    // The address changes before the page renders without the navigation.
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'detached', ...POLL });
    await page.goto(`${base}/users`);
    await page.waitForURL(`${base}/login?next=%2Fusers`, POLL);
    // Signing in brings the visitor back where the guard found them.
    await page.getByLabel('E-mail address').fill('owner@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/users`, POLL);
    await page.getByRole('heading', { name: 'Accounts' }).waitFor(POLL);

    const reg = (await (await fetch(`${base}/v1/auth/registration`)).json()) as { open: boolean };
    expect(reg.open).toBe(false);
    expectNoProblems(problems);
  });

  it('resets a forgotten password through the e-mailed link', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await page.goto(`${base}/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('button', { name: 'Send the link' }).waitFor(POLL);
    const before = cms.server.output().length;
    await page.getByLabel('E-mail address').fill('owner@example.com');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('status').getByText('If an account uses that address').waitFor(POLL);

    const link = await waitForMailLink(cms.server, '/reset-password', 'owner@example.com');
    expect(cms.server.output().length).toBeGreaterThan(before);
    await page.goto(`${base}${link}`);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor(POLL);
    const fresh = 'a brand new passphrase 2026';
    await page.getByLabel('New password', { exact: true }).fill(fresh);
    await page.getByLabel('Repeat the new password').fill(`${fresh}x`);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').getByText('The two passwords differ.').waitFor(POLL);
    await page.getByLabel('Repeat the new password').fill(fresh);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password was changed.').waitFor(POLL);

    await signIn(page, base, 'owner@example.com', fresh);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), POLL).toBe('Edge CMS');
    expectNoProblems(problems);
  });
});
