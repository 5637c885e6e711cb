import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainNav } from '../support/browser.js';
import {
  apiCall,
  type Cms,
  createOwner,
  expectNoProblems,
  expectNoSideScroll,
  newPage,
  POLL,
  screenshots,
  signIn,
  startCms,
} from './admin-helpers.js';

const OWNER = 'owner@example.com';
const CREATED = 30;

/** The activity log screen in Chromium against the real Node server: summary, charts, filters, paging, export. */
describe('admin activity log', () => {
  let cms: Cms;
  let token: string;
  beforeAll(async () => {
    cms = await startCms();
    token = await createOwner(cms.server, OWNER);
    const first = await apiCall<{ article: { id: string } }>(cms.server, 'POST', '/v1/articles', token, {
      title: 'Article 0',
    });
    for (let i = 1; i < CREATED; i++)
      expect((await apiCall(cms.server, 'POST', '/v1/articles', token, { title: `Article ${i}` })).status).toBe(201);
    expect((await apiCall(cms.server, 'POST', `/v1/articles/${first.body.article.id}/publish`, token)).status).toBe(
      200,
    );
  });
  afterAll(async () => {
    await cms?.stop();
  });

  it('summarises, charts, filters, pages and exports the log', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, OWNER);
    await (await mainNav(page)).getByRole('link', { name: 'Activity' }).click();
    const total = page.getByTestId('activity-total');
    await total.waitFor(POLL);
    const summary = (
      await apiCall<{ total: number; byAction: { action: string; count: number }[] }>(
        cms.server,
        'GET',
        '/v1/activity/summary',
        token,
      )
    ).body;
    expect(summary.total).toBeGreaterThan(CREATED);
    expect(await total.textContent()).toMatch(new RegExp(`^${summary.total} entries\\.`));
    // The day chart's bars add up to the total; the action bars name what happened.
    const bars = page.getByTestId('chart-by-day').locator('rect[data-count]');
    const counts = (await bars.evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-count'))))) as number[];
    expect(counts.reduce((a, b) => a + b, 0)).toBe(summary.total);
    expect(await page.getByTestId('chart-by-day').locator('svg').getAttribute('aria-label')).toMatch(
      /^Entries per day/,
    );
    // The action bars name what happened in words, not the API's codes.
    const byAction = page.getByTestId('chart-by-action');
    expect(await byAction.textContent()).toContain(`Created an article${CREATED}`);
    expect(await byAction.textContent()).toContain('Published an article1');
    expect(await byAction.textContent()).toContain('Signed in');
    expect(await byAction.textContent()).not.toContain('auth.login');
    await expect.poll(() => page.getByTestId('activity-list').locator(':scope > li').count(), POLL).toBe(25);
    await expectNoSideScroll(page);
    await screenshots(page, 'activity');

    // Filter by action: the summary and the list narrow; "Load more" brings the rest.
    await page.getByLabel('Action', { exact: true }).selectOption('article.create');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect
      .poll(() => total.textContent(), POLL)
      .toBe(
        `${CREATED} entries. The log holds ${await total.textContent().then((t) => /holds (.*) of/.exec(t ?? '')?.[1])} of at most 10.0 MiB; the oldest entries go first.`,
      );
    const list = page.getByTestId('activity-list').locator(':scope > li');
    await expect.poll(() => list.count(), POLL).toBe(25);
    await page.getByRole('button', { name: 'Load more entries' }).click();
    await expect.poll(() => list.count(), POLL).toBe(CREATED);
    expect(new Set(await list.locator('.activity-action').allTextContents())).toEqual(new Set(['Created an article']));
    expect(await list.first().textContent()).toContain('Olive Owner');
    // The menu still offers the other actions while one is chosen.
    expect(await page.getByLabel('Action', { exact: true }).locator('option').allTextContents()).toContain(
      'Published an article',
    );

    // Export by keyboard: the menu opens on its first item, arrows move, Escape gives focus back.
    await page.locator('#export-button').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent), POLL).toBe('CSV (spreadsheets)');
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent), POLL)
      .toBe('NDJSON (one JSON object a line)');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('export-button');
    expect(await page.getByRole('menu').count()).toBe(0);

    // CSV and NDJSON, with the filter applied, as downloads.
    await page.getByRole('button', { name: 'Export' }).click();
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'CSV (spreadsheets)' }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/^activity-\d{4}-\d{2}-\d{2}\.csv$/);
    const csvLines = (await readFile((await csv.path())!, 'utf8')).trim().split(/\r?\n/);
    expect(csvLines).toHaveLength(CREATED + 1);
    expect(csvLines.slice(1).every((l) => l.includes('article.create'))).toBe(true);
    await page
      .getByTestId('activity-status')
      .getByText(/^Downloaded activity-.*\.csv/)
      .waitFor(POLL);
    await page.getByRole('button', { name: 'Export' }).click();
    const [ndjson] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'NDJSON (one JSON object a line)' }).click(),
    ]);
    expect(ndjson.suggestedFilename()).toMatch(/\.ndjson$/);
    const rows = (await readFile((await ndjson.path())!, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { action: string });
    expect(rows).toHaveLength(CREATED);
    expect(rows.every((r) => r.action === 'article.create')).toBe(true);

    // Days: a period with nothing in it; an impossible one is explained without asking the API.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('From (UTC day)').fill(tomorrow);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No entries match.').waitFor(POLL);
    await page.getByLabel('To (UTC day, included)').fill(today);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('alert').getByText('The first day must not be after the last day.').waitFor(POLL);
    await page.getByLabel('From (UTC day)').fill(today);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => total.textContent(), POLL).toMatch(new RegExp(`^${CREATED} entries in this period\\.`));

    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => total.textContent(), POLL).toMatch(/^\d+ entries\. /);
    expectNoProblems(problems);
  });
});
