import type { BrowserContext, Locator, Page } from 'playwright-core';

export { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, launchChromium } from '../../scripts/lib/chromium.ts';

export interface CspViolation {
  url: string;
  directive: string;
  blockedURI: string;
  sample: string;
  source: string;
  line: number;
}

/** What went wrong in a browser context, across every page and navigation in it. */
export interface BrowserProblems {
  cspViolations: CspViolation[];
  consoleErrors: string[];
  pageErrors: string[];
}

/**
 * Starts recording CSP violations, console errors and uncaught page errors
 * in `context`. Call it before opening pages. The violation listener is an
 * init script (so it is in place before the page's own scripts run) that
 * reports through a Playwright binding, which is not a script in the page
 * and so is not itself subject to the page's CSP.
 */
export async function watchProblems(context: BrowserContext): Promise<BrowserProblems> {
  const problems: BrowserProblems = { cspViolations: [], consoleErrors: [], pageErrors: [] };
  await context.exposeBinding('__reportCspViolation', (_source, violation: CspViolation) => {
    problems.cspViolations.push(violation);
  });
  await context.addInitScript(() => {
    const report = (window as unknown as { __reportCspViolation: (v: unknown) => void }).__reportCspViolation;
    document.addEventListener('securitypolicyviolation', (e) => {
      report({
        url: e.documentURI,
        directive: e.effectiveDirective,
        blockedURI: e.blockedURI,
        sample: e.sample,
        source: e.sourceFile,
        line: e.lineNumber,
      });
    });
  });
  context.on('console', (msg) => {
    if (msg.type() === 'error') problems.consoleErrors.push(`${msg.location().url}: ${msg.text()}`);
  });
  context.on('page', (page) => {
    page.on('pageerror', (err) => problems.pageErrors.push(err.stack ?? err.message));
  });
  return problems;
}

/**
 * The admin's main navigation, opened first where it is folded behind its
 * "Menu" button (narrow screens), so its links can be read and clicked.
 */
export async function mainNav(page: Page, timeout = 15_000): Promise<Locator> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.waitFor({ timeout });
  const toggle = nav.getByRole('button', { name: /^Menu/ });
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'false') {
    await toggle.click();
    await nav.locator('button[aria-expanded="true"]').waitFor({ timeout });
  }
  return nav;
}

/**
 * Waits until the admin's client-side move away from the page headed `heading` has finished. The
 * address changes before the new page renders (Qwik City sets it, then renders), and what follows
 * the address, such as the phone menu closing after each move, runs with that render: once the old
 * heading is gone it has run, so a menu opened now stays open.
 */
export async function movedOn(page: Page, heading: string, timeout = 15_000): Promise<void> {
  await page.getByRole('heading', { name: heading, exact: true }).waitFor({ state: 'detached', timeout });
}
