import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { expect } from 'vitest';
import { buildNode } from '../../scripts/build-node.ts';
import { type BrowserProblems, launchChromium, movedOn, watchProblems } from '../support/browser.js';
import { type ServerProcess, startServer } from '../support/server-process.js';

/** The key the admin keeps its session token under (sessionStorage; see admin-qwik/src/lib/session.ts). */
export const TOKEN_KEY = 'cms.session';
export const POLL = { timeout: 15_000 };
export const PASSWORD = 'correct horse battery staple';

export interface Cms {
  server: ServerProcess;
  browser: Browser;
  contexts: BrowserContext[];
  stop(): Promise<void>;
}

/** The real Node server (fresh SQLite and uploads in a temporary directory, log mailer, `env` added) and Chromium. */
export async function startCms(env: Record<string, string> = {}): Promise<Cms> {
  await buildNode();
  const cwd = await mkdtemp(path.join(tmpdir(), 'cms-admin-'));
  const server = await startServer(cwd, env);
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];
  return {
    server,
    browser,
    contexts,
    async stop() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close();
      await server.stop();
      await rm(cwd, { recursive: true, force: true });
    },
  };
}

/** A phone-sized context whose CSP violations, console errors and page errors are recorded. */
export async function newPage(cms: Cms): Promise<{ context: BrowserContext; page: Page; problems: BrowserProblems }> {
  const context = await cms.browser.newContext({ viewport: { width: 375, height: 800 } });
  cms.contexts.push(context);
  const problems = await watchProblems(context);
  return { context, page: await context.newPage(), problems };
}

/** An API answer the test provokes on purpose: Chromium logs every non-2xx fetch as a console error. */
export interface ExpectedAnswer {
  /** Matched against the request's URL path (`/v1/sites/…`). */
  path: RegExp;
  status: number;
}

/**
 * Zero CSP violations, console errors and page errors. `expected` names the
 * error answers the test provoked (the browser's own "Failed to load
 * resource" line for each); every one must have been seen, and nothing else.
 */
export function expectNoProblems(problems: BrowserProblems, expected: ExpectedAnswer[] = []): void {
  expect(problems.cspViolations).toEqual([]);
  const unseen = new Set(expected);
  const rest = problems.consoleErrors.filter((line) => {
    const m = /^(\S+?): Failed to load resource: the server responded with a status of (\d+)/.exec(line);
    if (!m) return true;
    // The editor asks for an online article's pending draft on every open: 404 is "none" (the API's answer).
    if (m[2] === '404' && /^\/v1\/articles\/[^/]+\/draft$/.test(new URL(m[1]!).pathname)) return false;
    const hit = expected.find((e) => e.status === Number(m[2]) && e.path.test(new URL(m[1]!).pathname));
    if (!hit) return true;
    unseen.delete(hit);
    return false;
  });
  expect(rest).toEqual([]);
  expect([...unseen]).toEqual([]);
  expect(problems.pageErrors).toEqual([]);
}

/**
 * The newest e-mail link to `route` (`/verify`, `/reset-password`, `/accept-invite`) that the log mailer
 * printed, to `to` when given, as a path. Each e-mail is one JSON line naming its recipient and links; a
 * line is read whole, so an e-mail to someone else (or an earlier one, before `to`'s has been printed)
 * is never taken for `to`'s.
 */
export function mailLink(server: ServerProcess, route: string, to?: string): string {
  const pattern = new RegExp(`^https?://[^\\s"]*(${route}\\?code=[A-Za-z0-9_%.~-]+)$`);
  const mails = server
    .output()
    .split('\n')
    .flatMap((line) => {
      try {
        const mail = JSON.parse(line) as { to?: unknown; links?: unknown };
        return Array.isArray(mail.links) ? [{ to: mail.to, links: mail.links as unknown[] }] : [];
      } catch {
        return []; // not a log line (a chunk of something else on the same stream)
      }
    });
  for (const mail of mails.reverse()) {
    if (to !== undefined && mail.to !== to) continue;
    for (const link of [...mail.links].reverse()) {
      const m = typeof link === 'string' ? pattern.exec(link) : null;
      if (m) return m[1]!;
    }
  }
  throw new Error(`no ${route} link${to ? ` to ${to}` : ''} in the server log:\n${server.output().slice(-2000)}`);
}

export async function waitForMailLink(server: ServerProcess, route: string, to?: string): Promise<string> {
  const deadline = Date.now() + POLL.timeout;
  for (;;) {
    try {
      return mailLink(server, route, to);
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function post(server: ServerProcess, p: string, body: unknown, token?: string): Promise<Response> {
  return fetch(`${server.url}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

/** The first account, verified (so the owner), through the API; returns its session token. */
export async function createOwner(server: ServerProcess, email: string, password = PASSWORD): Promise<string> {
  const reg = await post(server, '/v1/auth/register', { email, password, displayName: 'Olive Owner' });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const code = new URL(await waitForMailLink(server, '/verify', email), 'http://x').searchParams.get('code');
  const ver = await post(server, '/v1/auth/verify', { code });
  if (ver.status !== 200) throw new Error(`verify: ${ver.status} ${await ver.text()}`);
  const login = await post(server, '/v1/auth/login', { email, password });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  return ((await login.json()) as { token: string }).token;
}

/** Signs in through the login page and waits for the dashboard. */
export async function signIn(page: Page, base: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The navigation shows as soon as the session is kept, still on /login; the move to the
  // dashboard then closes a phone's menu, so a caller that opened it before would find it shut.
  await page.waitForURL((url) => url.pathname !== '/login', POLL);
  await movedOn(page, 'Sign in');
  await page.getByRole('navigation', { name: 'Main' }).waitFor(POLL);
}

/** Usable at 375 px: nothing makes the page scroll sideways. */
export async function expectNoSideScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** Where screenshots go: test/artifacts/ (CI keeps them; a .gitignore written here keeps them out of commits). */
export const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

/**
 * Screenshots of the page as it is, in light and then dark colour mode
 * (through the system preference the admin follows by default), as
 * `test/artifacts/<name>-light.png` and `-dark.png`.
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await writeFile(path.join(ARTIFACTS, '.gitignore'), '*\n');
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme), POLL).toBe(colorScheme);
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${colorScheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: null });
}

/** A JSON call to the API as a test fixture (not through the admin). */
export async function apiCall<T = unknown>(
  server: ServerProcess,
  method: string,
  p: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.url}${p}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** An admin (not owner) account: invited by the owner and accepted, through the API. */
export async function createAdmin(
  server: ServerProcess,
  ownerToken: string,
  email: string,
  password = PASSWORD,
): Promise<void> {
  const invite = await apiCall(server, 'POST', '/v1/user/invite', ownerToken, { email, role: 'admin' });
  if (invite.status !== 201) throw new Error(`invite: ${invite.status}`);
  const code = new URL(await waitForMailLink(server, '/accept-invite', email), server.url).searchParams.get('code');
  const accepted = await apiCall(server, 'POST', '/v1/auth/invitation/accept', '', { code, password });
  if (accepted.status !== 201) throw new Error(`accept: ${accepted.status}`);
}

/**
 * The editor's side panel (format, site, authors, images, SEO, schedule):
 * on a narrow screen a drawer, opened by "Article settings"; on a wide one
 * always there. `open` false closes the drawer again (it covers the text).
 */
export async function editorSettings(page: Page, open = true): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Article settings' });
  if (!(await toggle.isVisible())) return;
  if ((await toggle.getAttribute('aria-expanded')) === String(open)) return;
  if (open) await toggle.click();
  else await page.getByRole('button', { name: 'Close settings' }).click();
  const side = page.locator(open ? '#editor-side[data-open]' : '#editor-side:not([data-open])');
  // Closed, it is hidden once it has slid out: 'visible' would only catch it during the slide.
  await side.waitFor({ state: open ? 'visible' : 'attached', ...POLL });
  // The drawer slides (a CSS transition): wait until it stands still, so clicks land where they aim.
  await side.evaluate((el) => Promise.allSettled(el.getAnimations().map((a) => a.finished)));
}

/** The body editor once CodeMirror has replaced the plain textarea it starts as. */
async function readyBody(page: Page) {
  const host = page.locator('[data-testid="body-editor"][data-ready]');
  await host.waitFor(POLL);
  return host;
}

/**
 * A reload as the page's own `location.reload()`, so Chromium runs the page's
 * beforeunload in the page: for a reload sent from outside (`page.reload`)
 * the browser waits only a moment for the page's answer, then goes on without
 * asking (its BeforeUnloadTimeout), and a loaded CI run once saw no question
 * at all. A dialog handler answers the question; with `leave` this settles
 * once the new page has loaded, with `stay` once the page stayed.
 */
export async function reloadFromPage(page: Page, answer: 'stay' | 'leave'): Promise<void> {
  const reload = page.evaluate(() => location.reload()).catch(() => {});
  if (answer === 'stay') return reload;
  await Promise.all([page.waitForEvent('load', POLL), reload]);
}

/** Replaces the article body, typed into the CodeMirror editor. */
export async function fillBody(page: Page, text: string): Promise<void> {
  const host = await readyBody(page);
  // CodeMirror's own textbox: the plain textarea it replaces can still be in the page a moment longer.
  await host.locator('.cm-content').fill(text);
}

/** The article body as the editor holds it (CodeMirror draws only the lines in view; its host has the text as `value`). */
export async function bodyText(page: Page): Promise<string> {
  return (await readyBody(page)).evaluate((el) => (el as HTMLElement & { value: string }).value);
}

/** Shows the preview (hidden by default: writing first), and returns it. */
export async function showPreview(page: Page) {
  const toggle = page.getByRole('button', { name: 'Preview', exact: true });
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  const preview = page.getByTestId('preview');
  await preview.waitFor(POLL);
  return preview;
}

/**
 * Lets `ms` of the page's time pass at once, on the clock installed before
 * the page loaded (`page.clock.install()`), and answers the `method`
 * requests the page started meanwhile: how a test shows that nothing is sent
 * while time passes, without sleeping through it.
 */
export async function requestsWhileTimePasses(page: Page, ms: number, method = 'PATCH'): Promise<string[]> {
  const seen: string[] = [];
  const onRequest = (r: Request) => {
    if (r.method() === method) seen.push(r.url());
  };
  page.on('request', onRequest);
  try {
    await page.clock.runFor(ms);
    // Work the timers queued behind promises (an autosave awaits its checks before it sends).
    for (let i = 0; i < 5; i++) await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    await page.clock.runFor(1);
  } finally {
    page.off('request', onRequest);
  }
  return seen;
}

/**
 * The bodies of the drafts this browser keeps (the editor's IndexedDB
 * store). The editor opens that database while loading, so this read
 * creates nothing.
 */
export function keptBodies(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const req = indexedDB.open('cms-editor');
        req.onsuccess = () => {
          const db = req.result;
          if (!db.objectStoreNames.contains('drafts')) return resolve([]);
          const all = db.transaction('drafts').objectStore('drafts').getAll();
          all.onsuccess = () => {
            db.close();
            resolve(all.result.map((d: { fields: { body: string } }) => d.fields.body));
          };
        };
        req.onerror = () => resolve([]);
      }),
  );
}
