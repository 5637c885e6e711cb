import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Response } from 'playwright-core';
import { makeSourceJpeg } from './images.ts';

/**
 * Two of the admin's budgets, measured in Chromium on the real
 * Node server that scripts/bench/admin-bytes.ts starts:
 *
 * - **the editor route**: a signed-in editor opens an article in a fresh
 *   context (empty cache) and types into the body once its editing
 *   component is ready; every JavaScript response until the network is
 *   idle counts, gzip level 9 (as for the login figure). Goal ≤ 200 KiB.
 * - **the media grid with 24 phone photos**: 24 uploads of a 4032×3024
 *   JPEG (about 2.9 MB each), then the media library opened on a phone
 *   (390×844 CSS px, 3 device pixels per CSS pixel, empty cache) and
 *   scrolled to its end so every tile has loaded; the transfer size of
 *   every response (headers and body, as Chromium counts them) is summed.
 *   Goal ≤ 1.5 MiB.
 */
export const EDITOR_JS_GOAL_BYTES = 200 * 1024;
export const MEDIA_PAGE_GOAL_BYTES = 1.5 * 1024 * 1024;
export const MEDIA_PHOTOS = 24;
export const PHONE_PHOTO = { width: 4032, height: 3024 };

const OWNER = { email: 'bench-owner@example.com', password: 'a bench password that is long enough' };
const TOKEN_KEY = 'cms.session'; // admin-qwik/src/lib/session.ts
const gz = (bytes: Uint8Array): number => gzipSync(bytes, { level: 9 }).length;

export interface EditorJs {
  files: number;
  raw: number;
  gzip: number;
  /** Whether the page had a separate editing component that reported ready (CodeMirror's host, `data-ready`). */
  component: boolean;
  list: { path: string; gzip: number }[];
}

export interface MediaPage {
  photos: number;
  photoBytes: number;
  requests: number;
  bytes: number;
  /** The part of `bytes` that were images, and how many image responses. */
  images: { requests: number; bytes: number };
}

export interface Budgets {
  editor: EditorJs;
  media: MediaPage;
}

async function post(origin: string, p: string, body: unknown, token?: string): Promise<globalThis.Response> {
  return fetch(`${origin}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

/** The first account through the API (registered, verified with the code the log mailer wrote to `logFile`), signed in. */
async function ownerToken(origin: string, logFile: string): Promise<string> {
  const reg = await post(origin, '/v1/auth/register', { ...OWNER, displayName: 'Bench Owner' });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  let code: string | undefined;
  for (let i = 0; i < 100 && !code; i++) {
    code = /\/verify\?code=([A-Za-z0-9_%.~-]+)/.exec(readFileSync(logFile, 'utf8'))?.[1];
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  if (!code) throw new Error('no verification link in the server log');
  const ver = await post(origin, '/v1/auth/verify', { code: decodeURIComponent(code) });
  if (ver.status !== 200) throw new Error(`verify: ${ver.status} ${await ver.text()}`);
  const login = await post(origin, '/v1/auth/login', OWNER);
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  return ((await login.json()) as { token: string }).token;
}

/** A fresh context already signed in: the token is where the admin keeps it before any page script runs. */
async function signedInContext(
  browser: Browser,
  token: string,
  options: Parameters<Browser['newContext']>[0],
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.addInitScript(
    ([key, value]) => sessionStorage.setItem(key as string, value as string),
    [TOKEN_KEY, token],
  );
  return context;
}

const isJs = (res: Response): boolean =>
  res.request().resourceType() === 'script' ||
  /javascript|ecmascript/.test(res.headers()['content-type'] ?? '') ||
  /\.m?js$/.test(new URL(res.url()).pathname);

async function measureEditor(browser: Browser, origin: string, token: string, articleId: string): Promise<EditorJs> {
  const context = await signedInContext(browser, token, { viewport: { width: 1280, height: 800 } });
  const js: Response[] = [];
  context.on('response', (res) => {
    if (isJs(res)) js.push(res);
  });
  const page = await context.newPage();
  await page.goto(`${origin}/articles/edit?id=${articleId}`, { waitUntil: 'load' });
  await page.locator('#article-body').waitFor({ timeout: 30_000 });
  // The editing component, where the page has one, replaces the plain field once it has loaded.
  const host = page.locator('[data-testid="body-editor"]');
  const component = (await host.count()) > 0;
  if (component) await page.locator('[data-testid="body-editor"][data-ready]').waitFor({ timeout: 30_000 });
  await page.locator('#article-body').click();
  await page.keyboard.type('Typed by the benchmark.');
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.waitForTimeout(500);
  const list: EditorJs['list'] = [];
  let raw = 0;
  for (const res of js) {
    const body = await res.body().catch(() => null);
    if (!body) continue;
    raw += body.length;
    list.push({ path: new URL(res.url()).pathname, gzip: gz(body) });
  }
  await context.close();
  return {
    files: list.length,
    raw,
    gzip: list.reduce((a, f) => a + f.gzip, 0),
    component,
    list: list.sort((a, b) => b.gzip - a.gzip),
  };
}

async function measureMedia(browser: Browser, origin: string, token: string, photoBytes: number): Promise<MediaPage> {
  const context = await signedInContext(browser, token, {
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
  });
  const responses: Response[] = [];
  context.on('response', (res) => {
    responses.push(res);
  });
  const page = await context.newPage();
  await page.goto(`${origin}/media`, { waitUntil: 'load' });
  const tiles = page.locator('[data-testid="media-grid"] li');
  for (let i = 0; i < 300 && (await tiles.count()) < MEDIA_PHOTOS; i++) await page.waitForTimeout(100);
  if ((await tiles.count()) < MEDIA_PHOTOS) throw new Error(`the media grid showed ${await tiles.count()} tiles`);
  // Every tile into view, so lazy images load as a visitor scrolling to the end would make them.
  for (let i = 0; i < MEDIA_PHOTOS; i++) await tiles.nth(i).scrollIntoViewIfNeeded();
  await page
    .waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid="media-grid"] img')].every((i) => (i as HTMLImageElement).complete),
      null,
      {
        timeout: 60_000,
      },
    )
    .catch(() => {});
  await page.waitForLoadState('networkidle').catch(() => {});
  let bytes = 0;
  let imageBytes = 0;
  let imageRequests = 0;
  for (const res of responses) {
    const sizes = await res
      .request()
      .sizes()
      .catch(() => null);
    if (!sizes) continue;
    const n = sizes.responseHeadersSize + sizes.responseBodySize;
    bytes += n;
    if (res.request().resourceType() === 'image') {
      imageBytes += n;
      imageRequests++;
    }
  }
  await context.close();
  return {
    photos: MEDIA_PHOTOS,
    photoBytes,
    requests: responses.length,
    bytes,
    images: { requests: imageRequests, bytes: imageBytes },
  };
}

/** Seeds an owner, an article and 24 phone photos through the API, then measures both budgets. */
export async function measureBudgets(browser: Browser, origin: string, logFile: string): Promise<Budgets> {
  const token = await ownerToken(origin, logFile);
  const created = await post(origin, '/v1/articles', { title: 'Budgets', body: 'A body to edit.' }, token);
  if (created.status !== 201) throw new Error(`create article: ${created.status} ${await created.text()}`);
  const articleId = ((await created.json()) as { article: { id: string } }).article.id;
  const photo = await makeSourceJpeg(PHONE_PHOTO);
  for (let i = 0; i < MEDIA_PHOTOS; i++) {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), `IMG_${2040 + i}.jpg`);
    const res = await fetch(`${origin}/v1/articles/${articleId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    if (res.status !== 201) throw new Error(`upload ${i + 1}: ${res.status} ${await res.text()}`);
  }
  const editor = await measureEditor(browser, origin, token, articleId);
  const media = await measureMedia(browser, origin, token, photo.length);
  return { editor, media };
}
