import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CSP } from '../../admin-qwik/csp.mjs';
import { buildNode } from '../../scripts/build-node.mjs';
import { launchChromium, watchProblems } from '../support/browser.js';
import { startServer, type ServerProcess } from '../support/server-process.js';

/** The admin as `npm start` serves it: the real Node server, its real headers, Chromium. */
describe('admin on the Node server', () => {
  let cwd: string;
  let server: ServerProcess;
  let browser: Browser;
  beforeAll(async () => {
    await buildNode();
    cwd = await mkdtemp(path.join(tmpdir(), 'cms-browser-'));
    server = await startServer(cwd, {});
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await rm(cwd, { recursive: true, force: true });
  });

  it('sends the policy the admin was built and tested for', async () => {
    const res = await fetch(`${server.url}/settings`);
    expect(res.headers.get('content-security-policy')).toBe(ADMIN_CSP);
  });

  it('shows the running build’s version on /settings, on a deep link, with no CSP violation', async () => {
    const version = (await (await fetch(`${server.url}/v1/system/version`)).json()) as { version: string; commit: string };
    expect(version.commit).not.toBe('unknown');
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const problems = await watchProblems(context);
    const page = await context.newPage();
    await page.goto(`${server.url}/settings`);
    await page.getByText(`Version ${version.version}`).waitFor({ timeout: 20_000 });
    expect(await page.getByText(version.commit).count()).toBe(1);
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByText(`Version ${version.version}`).waitFor({ timeout: 20_000 });
    await context.close();
    expect(problems).toEqual({ cspViolations: [], consoleErrors: [], pageErrors: [] });
  });
});
