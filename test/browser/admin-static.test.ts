import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CSP } from '../../admin-qwik/csp.ts';
import { type BrowserProblems, launchChromium, mainNav, watchProblems } from '../support/browser';

/**
 * The built admin (admin-qwik/dist) in Chromium under the production CSP,
 * served by a stand-in for the real servers: same CSP, same routing
 * (`/settings` → settings/index.html, unknown pages and files → 404.html) and a fixed /v1/system/version.
 */

// Spelled out here, not imported, so loosening admin-qwik/csp.ts fails this test.
const EXPECTED_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; " +
  "frame-ancestors 'none'; form-action 'self'; worker-src 'self' blob:";

const VERSION = { version: '9.8.7-test', commit: 'abc123def456', builtAt: '2026-11-25T21:00:00.000Z', target: 'node' };
// The machine may be busy with other suites: give client-side fetches time.
const POLL = { timeout: 10_000 };

// Every page but the sign-in ones needs a session: the stand-in knows one token, for this owner.
const OWNER = {
  id: '0190e0b6-0000-7000-8000-000000000001',
  email: 'owner@example.com',
  displayName: 'Olive',
  role: 'owner',
  verified: true,
  createdAt: '2026-11-25T21:00:00.000Z',
};

const READINESS = { ok: true, checks: { database: true, storage: true } };
const UPDATE_STATUS = {
  current: '9.8.7-test',
  latest: null,
  available: false,
  staged: null,
  lastCheckedAt: null,
  notes: null,
};

const root = path.resolve(import.meta.dirname, '../..');
const dist = path.join(root, 'admin-qwik/dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

function fileIn(dir: string, pathname: string): string | null {
  const file = path.resolve(dir, `.${pathname}`);
  if (!file.startsWith(dir + path.sep)) return null;
  return existsSync(file) && statSync(file).isFile() ? file : null;
}

/** The routing both real servers give the admin (Workers assets, Node's dir asset server). */
function resolveAsset(pathname: string): { file: string; status: number } {
  const direct = pathname.endsWith('/') ? fileIn(dist, `${pathname}index.html`) : fileIn(dist, pathname);
  if (direct) return { file: direct, status: 200 };
  if (path.posix.extname(pathname)) return { file: path.join(dist, '404.html'), status: 404 };
  const page = fileIn(dist, `${pathname.replace(/\/$/, '')}/index.html`);
  if (page) return { file: page, status: 200 };
  return { file: path.join(dist, '404.html'), status: 404 };
}

function startServer(): Promise<Server> {
  const server = createServer((req, res) => {
    res.setHeader('Content-Security-Policy', ADMIN_CSP);
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    };
    if (pathname === '/v1/system/version') return json(200, VERSION);
    if (pathname === '/readyz') return json(200, READINESS);
    if (pathname === '/healthz') return json(200, { ok: true });
    if (pathname === '/v1/auth/me' && req.headers.authorization === 'Bearer static-test-token')
      return json(200, { user: OWNER });
    if (pathname === '/v1/system/update' && req.headers.authorization === 'Bearer static-test-token')
      return json(200, UPDATE_STATUS);
    // The dashboard lists drafts, scheduled and recent articles: none here.
    if (pathname === '/v1/articles' && req.headers.authorization === 'Bearer static-test-token')
      return json(200, { items: [], nextCursor: null, total: 0 });
    if (pathname.startsWith('/v1/')) return json(404, { error: { code: 'not_found', message: 'Not found' } });
    const { file, status } = resolveAsset(decodeURIComponent(pathname));
    res.writeHead(status, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface ColorModeRecord {
  themeAtStart: string | null;
  /** performance.now() when data-theme was first seen set (an upper bound: observers run a little later). */
  themeSetAt: number | null;
  themeAtBody: string | null;
  themeAtDomContentLoaded: string | null;
  modeAtDomContentLoaded: string | null;
}

/** Records, from the very start of each document, when <html data-theme> is set and what it is at <body> and DOMContentLoaded. */
function recordColorMode() {
  // Init scripts run before the parser has created even <html>.
  const theme = () => document.documentElement?.getAttribute('data-theme') ?? null;
  const rec: ColorModeRecord = {
    themeAtStart: theme(),
    themeSetAt: null,
    themeAtBody: null,
    themeAtDomContentLoaded: null,
    modeAtDomContentLoaded: null,
  };
  (window as unknown as { __colorMode: ColorModeRecord }).__colorMode = rec;
  new MutationObserver((_, observer) => {
    if (rec.themeSetAt === null && theme() !== null) rec.themeSetAt = performance.now();
    if (document.body) {
      rec.themeAtBody = theme();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-theme'] });
  document.addEventListener('DOMContentLoaded', () => {
    rec.themeAtDomContentLoaded = theme();
    rec.modeAtDomContentLoaded = document.documentElement.getAttribute('data-color-mode');
  });
}

async function colorModeRecord(page: Page): Promise<ColorModeRecord & { firstPaint: number | null }> {
  return page.evaluate(() => {
    const rec = (window as unknown as { __colorMode: ColorModeRecord }).__colorMode;
    const firstPaint = performance.getEntriesByType('paint').find((e) => e.name === 'first-paint');
    return { ...rec, firstPaint: firstPaint?.startTime ?? null };
  });
}

describe('admin static build under the production CSP', () => {
  let server: Server;
  let browser: Browser;
  let origin: string;
  const contexts: BrowserContext[] = [];

  async function newContext(colorScheme: 'dark' | 'light' = 'dark') {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, colorScheme });
    contexts.push(context);
    const problems = await watchProblems(context);
    await context.addInitScript(recordColorMode);
    await context.addInitScript(() => {
      try {
        sessionStorage.setItem('cms.session', 'static-test-token');
      } catch {
        /* documents without storage (the 404 page of a file) */
      }
    });
    return { context, problems, page: await context.newPage() };
  }

  function expectNoProblems(problems: BrowserProblems) {
    expect(problems.cspViolations).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  }

  beforeAll(async () => {
    // A no-op when dist/ is newer than every admin source; builds otherwise.
    const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-admin.ts')], {
      cwd: root,
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`admin build failed:\n${build.stdout}\n${build.stderr}`);
    server = await startServer();
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  it('is served with exactly the CSP the admin is built for', async () => {
    expect(ADMIN_CSP).toBe(EXPECTED_CSP);
    const res = await fetch(`${origin}/settings`);
    expect(res.headers.get('content-security-policy')).toBe(EXPECTED_CSP);
    const html = await res.text();
    // Every executable script is external; only data blocks and Qwik's empty event anchors are inline.
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      ([, attrs, body]) => !/\bsrc=/.test(attrs ?? '') && body?.trim() && !/type="qwik\/json"/.test(attrs ?? ''),
    );
    expect(inline.map(([tag]) => tag.slice(0, 80))).toEqual([]);
    expect(html).toMatch(/<script [^>]*src="\/build\/inline\/[0-9a-f]{16}\.js"/);
  });

  it('goes from the dashboard to /settings by the nav, shows the version, and again on a deep link', async () => {
    const { page, problems } = await newContext();

    await page.goto(`${origin}/`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), POLL).toBe('Edge CMS');
    await expect.poll(() => page.getByTestId('health').textContent(), POLL).toContain('API ready');
    const nav = await mainNav(page);
    for (const label of ['Articles', 'Media', 'Users', 'Activity', 'Integrations', 'Settings']) {
      // The owner's links appear once the session is read: wait for them, do not sample once.
      await expect.poll(() => nav.getByRole('link', { name: label, exact: true }).count(), POLL).toBe(1);
    }
    // Usable at 375 px: nothing forces sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // A marker on window survives only a client-side (Qwik City) navigation,
    // which proves Qwik resumed and runs under the CSP.
    await page.evaluate(() => ((window as unknown as { __spa: boolean }).__spa = true));
    await nav.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.waitForURL(`${origin}/settings`);
    await page.getByText(`Version ${VERSION.version}`).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __spa?: boolean }).__spa)).toBe(true);
    expect(await page.getByText(VERSION.commit).count()).toBe(1);
    expect(await page.getByText('Node.js').count()).toBe(1);
    expect(
      await (await mainNav(page)).getByRole('link', { name: 'Settings', exact: true }).getAttribute('aria-current'),
    ).toBe('page');
    expect(await page.title()).toBe('Settings · Edge CMS');

    // Deep link: a fresh document for /settings.
    await page.goto(`${origin}/settings`);
    await page.getByText(`Version ${VERSION.version}`).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __spa?: boolean }).__spa)).toBeUndefined();
    expect(await page.locator('time').getAttribute('datetime')).toBe(VERSION.builtAt);

    expectNoProblems(problems);
  });

  it('sets the colour mode before first paint and the toggle switches and keeps it', async () => {
    const { page, problems } = await newContext('dark');
    await page.goto(`${origin}/settings`);
    await page.getByText(`Version ${VERSION.version}`).waitFor();

    const first = await colorModeRecord(page);
    expect(first.themeAtStart).toBeNull(); // the recorder really ran before color-mode.js
    expect(first.themeAtBody).toBe('dark');
    expect(first.themeAtDomContentLoaded).toBe('dark');
    expect(first.modeAtDomContentLoaded).toBe('system');
    expect(first.firstPaint).not.toBeNull();
    expect(first.themeSetAt).not.toBeNull();
    expect(first.themeSetAt as number).toBeLessThan(first.firstPaint as number);
    // The dark palette is what is painted.
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(17, 21, 28)');

    const toggle = page.getByRole('button', { name: /^Colour mode:/ });
    expect(await toggle.textContent()).toContain('System');
    await toggle.click(); // system → light
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme), POLL).toBe('light');
    expect(await page.getByRole('button', { name: 'Colour mode: Light' }).count()).toBe(1);

    await page.reload();
    await page.getByText(`Version ${VERSION.version}`).waitFor();
    const afterReload = await colorModeRecord(page);
    expect(afterReload.themeAtBody).toBe('light');
    expect(afterReload.modeAtDomContentLoaded).toBe('light');

    await page.getByRole('button', { name: 'Colour mode: Light' }).click(); // light → dark
    await expect.poll(() => page.evaluate(() => localStorage.getItem('cms.colorMode')), POLL).toBe('dark');
    await page.getByRole('button', { name: 'Colour mode: Dark' }).click(); // dark → system
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.colorMode), POLL).toBe('system');
    expect(await page.evaluate(() => localStorage.getItem('cms.colorMode'))).toBeNull();

    expectNoProblems(problems);
  });

  it('is keyboard usable: a skip link first, visible focus', async () => {
    const { page, problems } = await newContext('light');
    await page.goto(`${origin}/`);
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      return { text: el.textContent, outline: style.outlineStyle, width: style.outlineWidth };
    });
    expect(focused).toEqual({ text: 'Skip to content', outline: 'solid', width: '3px' });
    expect(await page.locator('main#main').count()).toBe(1);
    expect(await page.locator('header').count()).toBe(1);
    expectNoProblems(problems);
  });

  it('shows a loading state, then an error that can be retried', async () => {
    const { page, problems } = await newContext();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let fail = true;
    await page.route('**/v1/system/version', async (route) => {
      await held;
      if (fail)
        await route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: '{"error":{"code":"internal","message":"Boom"}}',
        });
      else await route.continue();
    });

    await page.goto(`${origin}/settings`);
    await page.getByRole('status').getByText('Loading version…').waitFor();
    release();
    await page.getByRole('alert').getByText('The version could not be loaded.').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('The server answered 500: Boom.');

    fail = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText(`Version ${VERSION.version}`).waitFor();

    // The 500 itself is the one console error expected.
    expect(problems.consoleErrors).toHaveLength(1);
    expect(problems.consoleErrors[0]).toMatch(/status of 500/);
    expect(problems.cspViolations).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  });

  it('answers unknown files and unknown pages with the not-found page, never the dashboard', async () => {
    const { page, problems } = await newContext();
    const missing = await page.goto(`${origin}/no-such-file.txt`);
    expect(missing?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    await page.getByRole('link', { name: 'Back to the dashboard' }).click();
    await page.waitForURL(`${origin}/`);
    await expect.poll(() => page.getByTestId('health').textContent(), POLL).toContain('API ready');

    const unknown = await page.goto(`${origin}/articles/some-id`);
    expect(unknown?.status()).toBe(404);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    expect(await page.getByTestId('health').count()).toBe(0);

    // The two 404 responses are the console errors expected.
    expect(problems.consoleErrors).toHaveLength(2);
    for (const line of problems.consoleErrors) expect(line).toMatch(/status of 404/);
    expect(problems.cspViolations).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  });
});
