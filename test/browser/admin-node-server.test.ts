import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CSP } from '../../admin-qwik/csp.ts';
import { mainNav } from '../support/browser.js';
import { type Cms, createOwner, expectNoProblems, newPage, startCms, TOKEN_KEY } from './admin-helpers.js';

/** The admin as `npm start` serves it: the real Node server, its real headers, Chromium. */
describe('admin on the Node server', () => {
  let cms: Cms;
  let browser: Browser;
  let token: string;
  beforeAll(async () => {
    cms = await startCms();
    browser = cms.browser;
    token = await createOwner(cms.server, 'owner@example.com');
  });
  afterAll(async () => {
    await cms?.stop();
  });

  it('sends the policy the admin was built and tested for', async () => {
    const res = await fetch(`${cms.server.url}/settings`);
    expect(res.headers.get('content-security-policy')).toBe(ADMIN_CSP);
  });

  it('shows the running build’s version on /settings, on a deep link, with no CSP violation', async () => {
    const version = (await (await fetch(`${cms.server.url}/v1/system/version`)).json()) as {
      version: string;
      commit: string;
    };
    expect(version.commit).not.toBe('unknown');
    expect(browser).toBeTruthy();
    const { context, page, problems } = await newPage(cms);
    await context.addInitScript(
      ([key, value]) => {
        try {
          sessionStorage.setItem(key!, value!);
        } catch {
          /* a document without storage */
        }
      },
      [TOKEN_KEY, token],
    );
    await page.goto(`${cms.server.url}/settings`);
    await page.getByText(`Version ${version.version}`).waitFor({ timeout: 20_000 });
    expect(await page.getByText(version.commit).count()).toBe(1);
    await page.goto(`${cms.server.url}/`);
    await (await mainNav(page)).getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByText(`Version ${version.version}`).waitFor({ timeout: 20_000 });
    expectNoProblems(problems);
  });
});
