import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CSP } from '../../admin-qwik/csp.ts';
import { IMMUTABLE } from '../../admin-qwik/tools/asset-headers.ts';
import { launchChromium, watchProblems } from '../support/browser.js';
import { startWranglerDev } from '../support/wrangler-dev.js';
import { expectNoProblems, POLL } from './admin-helpers.js';

interface Seen {
  path: string;
  status: number;
  headers: Record<string, string>;
}

/**
 * The admin's static files on the Workers target (wrangler.toml
 * `run_worker_first`, dist/_headers): a first visit runs the Worker only for
 * the page itself and the API; every other file comes from the asset layer,
 * with the security headers, and hashed files `immutable`. What the Worker
 * answered is recognisable: its API answers carry `Vary: Origin`, the pages
 * it serves `Cache-Control: no-cache`; the asset layer's own answers carry
 * neither (its default is `public, max-age=0, must-revalidate`).
 */
describe('admin static assets on wrangler dev (Workers target)', () => {
  let dev: Awaited<ReturnType<typeof startWranglerDev>>;
  let browser: Browser;
  beforeAll(async () => {
    dev = await startWranglerDev();
    browser = await launchChromium();
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await dev?.cleanup();
  });

  it('invokes the Worker on a first visit only for the app shell and API calls', async () => {
    const context = await browser.newContext();
    const problems = await watchProblems(context);
    const page = await context.newPage();
    const seen: Seen[] = [];
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.origin === dev.url) seen.push({ path: url.pathname, status: res.status(), headers: res.headers() });
    });
    await page.goto(`${dev.url}/login`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor(POLL);
    await page.waitForLoadState('networkidle');

    const byWorker = (s: Seen) =>
      /(^|,)\s*origin\s*(,|$)/i.test(s.headers.vary ?? '') || s.headers['cache-control'] === 'no-cache';
    const worker = seen.filter(byWorker).map((s) => s.path);
    expect(worker).toContain('/login');
    expect(worker.filter((p) => p !== '/login' && !p.startsWith('/v1/'))).toEqual([]);

    const files = seen.filter((s) => !byWorker(s));
    const hashed = files.filter((s) => /^\/(build|assets)\//.test(s.path));
    expect(hashed.length).toBeGreaterThan(3);
    for (const s of hashed) expect(s.headers['cache-control'], s.path).toBe(IMMUTABLE);
    // Unhashed files the page loads (favicon, the colour-mode script) skip the Worker too.
    expect(files.some((s) => !/^\/(build|assets)\//.test(s.path))).toBe(true);
    for (const s of seen) {
      expect(s.status, s.path).toBeLessThan(400);
      expect(s.headers['content-security-policy'], s.path).toBe(ADMIN_CSP);
      expect(s.headers['x-content-type-options'], s.path).toBe('nosniff');
      expect(s.headers['x-frame-options'], s.path).toBe('DENY');
    }
    expectNoProblems(problems);
    await context.close();
  });

  it('still runs the Worker for deep links, the API, images and health checks, and 404s the rest', async () => {
    const shell = await fetch(`${dev.url}/articles/edit`);
    expect(shell.status).toBe(200);
    expect(shell.headers.get('cache-control')).toBe('no-cache');
    expect(await shell.text()).toContain('<html');
    expect((await fetch(`${dev.url}/healthz`)).headers.get('vary')).toMatch(/Origin/);
    const image = await fetch(`${dev.url}/static/uploadedImages/00000000-0000-4000-8000-000000000000.png`);
    expect(image.status).toBe(404);
    expect(image.headers.get('content-type')).toMatch(/json/); // the Worker's uniform 404, not the asset layer's page
    // The API reference page and its renderer come from the asset layer, under the same policy.
    for (const path of ['/api-reference', '/api-reference/swagger-ui-bundle.js', '/api-reference/init.js']) {
      const file = await fetch(`${dev.url}${path}`);
      expect(file.status, path).toBe(200);
      expect(file.headers.get('content-security-policy'), path).toBe(ADMIN_CSP);
      await file.arrayBuffer();
    }
    const config = await fetch(`${dev.url}/_headers`);
    expect(config.status).toBe(404);
    expect(await config.text()).not.toContain('Content-Security-Policy:');
  });
});
