import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cms, createOwner, expectNoProblems, newPage, PASSWORD, POLL, startCms } from './admin-helpers.js';

const OWNER = 'owner@example.com';

/** `/login?next=…` after signing in: back to where the visitor was, never to another origin. */
describe('admin sign-in redirect', () => {
  let cms: Cms;
  beforeAll(async () => {
    cms = await startCms();
    await createOwner(cms.server, OWNER);
  });
  afterAll(async () => {
    await cms?.stop();
  });

  /** Signs in on `/login?next=<next>` in a fresh tab; requests to any other origin are recorded and cut. */
  async function signInWith(next: string): Promise<{ page: Page; elsewhere: string[]; done: () => void }> {
    const base = cms.server.url;
    const { context, page, problems } = await newPage(cms);
    const elsewhere: string[] = [];
    await context.route(
      (url) => url.origin !== base,
      (route) => {
        elsewhere.push(route.request().url());
        return route.abort();
      },
    );
    await page.goto(`${base}/login?next=${next}`);
    await page.getByLabel('E-mail address').fill(OWNER);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor(POLL);
    return { page, elsewhere, done: () => expectNoProblems(problems) };
  }

  // `/\t/evil.example/phish`: the browser drops the tab and reads `//evil.example/phish`.
  // `/.//evil.example` resolves to the path `//evil.example`; `\\evil.example` is `//evil.example`.
  it.each(['%2F%09%2Fevil.example%2Fphish', '%2F.%2F%2Fevil.example', '%5C%5Cevil.example'])(
    'stays on the origin for next=%s, which URL parsing turns into another host',
    async (next) => {
      const { page, elsewhere, done } = await signInWith(next);
      await expect.poll(() => new URL(page.url()).pathname, POLL).toBe('/');
      expect(new URL(page.url()).origin).toBe(cms.server.url);
      expect(elsewhere).toEqual([]);
      done();
    },
  );

  it('keeps the path, query and hash of a same-origin next', async () => {
    const { page, elsewhere, done } = await signInWith(encodeURIComponent('/media?q=cat#results'));
    await page.waitForURL(`${cms.server.url}/media?q=cat#results`, POLL);
    expect(elsewhere).toEqual([]);
    done();
  });
});
