import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'playwright-core';
import { buildNode, NODE_BUNDLE } from '../build-node.ts';
import { launchChromium } from '../lib/chromium.ts';
import { type Budgets, EDITOR_JS_GOAL_BYTES, MEDIA_PAGE_GOAL_BYTES, measureBudgets } from './admin-budgets.ts';
import { cleanupNow, installExitHandlers, startServer, trackTempDir } from './lib/processes.ts';

/**
 * The admin's JavaScript weight, as a visitor's browser pays it:
 *
 * - **before the login form is usable**: a fresh Chromium (empty cache)
 *   opens `/login` on the real Node server, fills the form and presses
 *   "Sign in"; every JavaScript response whose request started before the
 *   form's `POST /v1/auth/login` left the browser is counted (page scripts,
 *   Qwik's loader, the handlers the typing and the press needed, and
 *   whatever Qwik prefetched meanwhile). "Usable" is proven, not guessed:
 *   the form did send its request.
 * - **the build**: every `.js` file under `admin-qwik/dist/`.
 *
 * Sizes are gzip level 9 of each body, the way bundle-size.ts counts the
 * Worker (the Node server itself sends them uncompressed; a proxy or CDN in
 * front compresses). Goal: ≤ 60 KiB before the form is usable.
 * On the same server, admin-budgets.ts then measures the editor route's JS
 * and the media grid's bytes with 24 phone photos.
 *
 *   node scripts/bench/admin-bytes.ts [--json FILE]   alone
 *   npm run bench                                      as one row of the benchmark
 */
export const ADMIN_JS_GOAL_BYTES = 60 * 1024;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(root, 'admin-qwik/dist');
const gz = (bytes: Uint8Array): number => gzipSync(bytes, { level: 9 }).length;

/** Every .js file of the admin build, gzip-sized. */
export interface JsTotals {
  files: number;
  raw: number;
  gzip: number;
}

export function adminBuildJs(dir = DIST): JsTotals {
  let raw = 0;
  let gzip = 0;
  let files = 0;
  const visit = (p: string): void => {
    for (const e of readdirSync(p)) {
      const f = path.join(p, e);
      if (statSync(f).isDirectory()) visit(f);
      else if (/\.m?js$/.test(e)) {
        const bytes = readFileSync(f);
        raw += bytes.length;
        gzip += gz(bytes);
        files++;
      }
    }
  };
  visit(dir);
  return { files, raw, gzip };
}

function isJs(response: Response): boolean {
  const type = response.headers()['content-type'] ?? '';
  return (
    response.request().resourceType() === 'script' ||
    /javascript|ecmascript/.test(type) ||
    /\.m?js(\?|$)/.test(new URL(response.url()).pathname)
  );
}

/**
 * Opens `${origin}/login` in a fresh context and signs in with a made-up
 * account (a 401 is fine: the point is that the form sent its request).
 */
export interface SizedFile {
  path: string;
  raw: number;
  gzip: number;
  beforeLoad: boolean;
}

export interface LoginJs extends JsTotals {
  onLoad: { files: number; gzip: number };
  list: SizedFile[];
}

export async function measureLoginJs(origin: string): Promise<LoginJs> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const started = new Map<Request, number>(); // request → order it started in
    let order = 0;
    let usableAt = Infinity; // the order of the login POST
    const js: Response[] = [];
    context.on('request', (req) => {
      started.set(req, order++);
      if (usableAt === Infinity && req.method() === 'POST' && new URL(req.url()).pathname === '/v1/auth/login')
        usableAt = order - 1;
    });
    context.on('response', (res) => {
      if (isJs(res)) js.push(res);
    });
    const page = await context.newPage();
    await page.goto(`${origin}/login`, { waitUntil: 'load' });
    const atLoad = order;
    await page.getByLabel('E-mail address').fill('bench@example.com');
    await page.getByLabel('Password').fill('not a real password at all');
    const posted = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/v1/auth/login', {
      timeout: 30_000,
    });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await posted;
    await page.waitForLoadState('networkidle').catch(() => {});
    const sized: SizedFile[] = [];
    for (const res of js) {
      const at = started.get(res.request()) ?? Infinity;
      if (at > usableAt) continue;
      const body = await res.body().catch(() => null);
      if (!body) continue;
      sized.push({ path: new URL(res.url()).pathname, raw: body.length, gzip: gz(body), beforeLoad: at < atLoad });
    }
    await context.close();
    const sum = (list: readonly SizedFile[], k: 'raw' | 'gzip') => list.reduce((a, f) => a + f[k], 0);
    const onLoad = sized.filter((f) => f.beforeLoad);
    return {
      files: sized.length,
      raw: sum(sized, 'raw'),
      gzip: sum(sized, 'gzip'),
      onLoad: { files: onLoad.length, gzip: sum(onLoad, 'gzip') },
      list: sized.sort((a, b) => b.gzip - a.gzip),
    };
  } finally {
    await browser.close();
  }
}

/** Builds what is stale, starts the real Node server on a scratch database, measures, stops it. */
export interface AdminBytes {
  login: LoginJs;
  build: JsTotals;
  goal: number;
  /** The editor route's JS and the media grid's bytes (scripts/bench/admin-budgets.ts). */
  budgets: Budgets;
}

export async function measureAdminBytes({ serverScript = NODE_BUNDLE } = {}): Promise<AdminBytes> {
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/build-admin.ts')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`admin build failed:\n${(built.stdout ?? '') + (built.stderr ?? '')}`);
  if (serverScript === NODE_BUNDLE) await buildNode();
  const tmp = trackTempDir(mkdtempSync(path.join(os.tmpdir(), 'edge-cms-admin-bytes-')));
  const server = await startServer({
    name: 'the Node server (admin bytes)',
    script: serverScript,
    env: {
      DATABASE_URL: `sqlite:${path.join(tmp, 'cms.db')}`,
      STORAGE_URL: `file:${path.join(tmp, 'uploads')}`,
      JWT_SECRET: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex'),
    },
    cwd: tmp,
    logFile: path.join(tmp, 'server.log'),
    readyPath: '/readyz',
  });
  try {
    // The login first: it must see the first visit's cold caches of the server too.
    const login = await measureLoginJs(server.url);
    const browser = await launchChromium();
    try {
      const budgets = await measureBudgets(browser, server.url, path.join(tmp, 'server.log'));
      return { login, build: adminBuildJs(), goal: ADMIN_JS_GOAL_BYTES, budgets };
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
}

const kib = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;
const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(2)} MiB`;
const ratio = (value: number, goal: number): string =>
  `${(value / goal).toFixed(2)}× the goal: ${value <= goal ? 'PASS' : 'MISS'}`;

/** One line for people: the login figure next to the build's total. */
export function formatAdminBytes(r: AdminBytes): string {
  const verdict = r.login.gzip <= r.goal ? 'PASS' : 'MISS';
  return (
    `admin JS before the login form is usable: ${kib(r.login.gzip)} gzip in ${r.login.files} file(s) ` +
    `(${kib(r.login.onLoad.gzip)} of it at page load; goal ≤ ${kib(r.goal)}: ${verdict}); ` +
    `all admin JS in the build: ${kib(r.build.gzip)} gzip (${kib(r.build.raw)} raw) in ${r.build.files} file(s)\n` +
    formatBudgets(r.budgets)
  );
}

/** The editor route's and the media grid's lines, each as a ratio to its goal. */
export function formatBudgets({ editor, media }: Budgets): string {
  return (
    `admin JS on the editor route${editor.component ? ' with its editing component' : ''}: ` +
    `${kib(editor.gzip)} gzip in ${editor.files} file(s) (goal ≤ ${kib(EDITOR_JS_GOAL_BYTES)}; ` +
    `${ratio(editor.gzip, EDITOR_JS_GOAL_BYTES)})\n` +
    `media grid on a phone, ${media.photos} photos of ${mib(media.photoBytes)}: ${mib(media.bytes)} transferred ` +
    `in ${media.requests} responses, ${mib(media.images.bytes)} of it in ${media.images.requests} image(s) ` +
    `(goal ≤ ${mib(MEDIA_PAGE_GOAL_BYTES)}; ${ratio(media.bytes, MEDIA_PAGE_GOAL_BYTES)})`
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  installExitHandlers();
  const jsonAt = process.argv.indexOf('--json');
  const jsonFile = jsonAt > 0 ? process.argv[jsonAt + 1] : undefined;
  try {
    const r = await measureAdminBytes();
    console.log(formatAdminBytes(r));
    for (const f of r.login.list)
      console.log(`  ${kib(f.gzip).padStart(9)}  ${f.beforeLoad ? 'load ' : 'input'}  ${f.path}`);
    console.log('the editor route, largest first:');
    for (const f of r.budgets.editor.list.slice(0, 15)) console.log(`  ${kib(f.gzip).padStart(9)}  ${f.path}`);
    if (jsonFile) writeFileSync(path.resolve(jsonFile), `${JSON.stringify(r, null, 2)}\n`);
    cleanupNow();
    process.exit(0);
  } catch (err) {
    console.error(`admin-bytes failed: ${err instanceof Error ? err.message : String(err)}`);
    cleanupNow();
    process.exit(1);
  }
}
