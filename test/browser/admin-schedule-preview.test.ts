import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  type Cms,
  createOwner,
  editorSettings,
  expectNoProblems,
  expectNoSideScroll,
  newPage,
  POLL,
  screenshots,
  signIn,
  startCms,
} from './admin-helpers.js';

const OWNER = 'owner@example.com';

interface Article {
  id: string;
  status: string;
  scheduledAt: string | null;
}

/** The editor's "Schedule and preview" card in Chromium, against the real Node server and its scheduler timer. */
describe('admin: schedule and preview links', () => {
  let cms: Cms;
  let token: string;
  beforeAll(async () => {
    // A tick a second, so that a publication falls due within the test.
    cms = await startCms({ SCHEDULER_INTERVAL_SECONDS: '1' });
    token = await createOwner(cms.server, OWNER);
  });
  afterAll(async () => {
    await cms?.stop();
  });

  const article = async (id: string) =>
    (await apiCall<{ article: Article }>(cms.server, 'GET', `/v1/articles/${id}`, token)).body.article;

  it('schedules and cancels a publication, and makes, copies and revokes a preview link', async () => {
    const base = cms.server.url;
    const { id } = (await apiCall<{ article: Article }>(cms.server, 'POST', '/v1/articles', token, { title: 'Draft' }))
      .body.article;
    const { page, context, problems } = await newPage(cms);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await signIn(page, base, OWNER);
    await page.goto(`${base}/articles/edit?id=${id}`);
    await page.getByLabel('Title', { exact: true }).waitFor(POLL);
    await editorSettings(page);
    const card = page.getByTestId('schedule-and-preview');
    await card.waitFor(POLL);

    // Refused before sending: a time in the past.
    await card.getByLabel('Publish at').fill('2020-01-01T10:00');
    await card.getByRole('button', { name: 'Schedule' }).click();
    await card.getByRole('alert').getByText('Choose a time in the future.').waitFor(POLL);

    const next = new Date(Date.now() + 2 * 24 * 3600 * 1000);
    next.setSeconds(0, 0);
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = `${next.getFullYear()}-${pad(next.getMonth() + 1)}-${pad(next.getDate())}T${pad(next.getHours())}:${pad(next.getMinutes())}`;
    await card.getByLabel('Publish at').fill(local);
    await card.getByRole('button', { name: 'Schedule' }).click();
    await card.getByTestId('scheduled-at').waitFor(POLL);
    expect(await article(id)).toMatchObject({ status: 'offline', scheduledAt: next.toISOString() });
    expect(await page.getByTestId('article-status').textContent()).toBe('offline');
    await expectNoSideScroll(page);
    await screenshots(page, 'editor-schedule');

    await card.getByRole('button', { name: 'Cancel schedule' }).click();
    await card.getByRole('button', { name: 'Yes, cancel it' }).click();
    await card
      .getByTestId('schedule-status')
      .getByText(/schedule was cancelled/)
      .waitFor(POLL);
    expect((await article(id)).scheduledAt).toBeNull();

    // A preview link for one day, shown and copied; it reads the offline article without a session.
    await card.getByLabel('Valid for').selectOption({ label: '1 day' });
    await card.getByRole('button', { name: 'Create preview link' }).click();
    const field = card.getByLabel('Link', { exact: true });
    await field.waitFor(POLL);
    const url = await field.inputValue();
    expect(url).toMatch(/\/v1\/preview\/[A-Za-z0-9_-]{43}$/);
    await card.getByTestId('preview-link').getByRole('button', { name: 'Copy' }).click();
    await card.getByTestId('preview-copy-status').getByText('Copied to the clipboard.').waitFor(POLL);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    const path = new URL(url).pathname;
    const shown = await fetch(`${base}${path}`);
    expect(shown.status).toBe(200);
    expect(((await shown.json()) as { article: Article }).article).toMatchObject({ id, status: 'offline' });

    await card.getByRole('button', { name: 'Revoke preview links' }).click();
    await card.getByRole('button', { name: 'Yes, revoke them' }).click();
    await card
      .getByTestId('schedule-status')
      .getByText(/stopped working/)
      .waitFor(POLL);
    expect((await fetch(`${base}${path}`)).status).toBe(404);
    expectNoProblems(problems);
  });

  it('is published by the server’s scheduler when its time comes, and the editor says so', async () => {
    const base = cms.server.url;
    const { id } = (await apiCall<{ article: Article }>(cms.server, 'POST', '/v1/articles', token, { title: 'Soon' }))
      .body.article;
    const publishAt = new Date(Date.now() + 3000).toISOString();
    expect((await apiCall(cms.server, 'POST', `/v1/articles/${id}/schedule`, token, { publishAt })).status).toBe(200);
    expect((await fetch(`${base}/v1/articles/${id}`)).status).toBe(404);
    await expect.poll(async () => (await fetch(`${base}/v1/articles/${id}`)).status, { timeout: 20_000 }).toBe(200);
    expect(await article(id)).toMatchObject({ status: 'online', scheduledAt: null });

    const { page, problems } = await newPage(cms);
    await signIn(page, base, OWNER);
    await page.goto(`${base}/articles/edit?id=${id}`);
    await page.getByLabel('Title', { exact: true }).waitFor(POLL);
    await editorSettings(page);
    await page.getByTestId('schedule-and-preview').getByText('This article is online.').waitFor(POLL);
    expect(await page.getByTestId('article-status').textContent()).toBe('online');
    const log = await apiCall<{ items: { actorType: string; subjectId: string }[] }>(
      cms.server,
      'GET',
      '/v1/activity?action=article.publish',
      token,
    );
    expect(log.body.items.filter((e) => e.subjectId === id)).toEqual([
      expect.objectContaining({ actorType: 'system' }),
    ]);
    expectNoProblems(problems);
  });
});
