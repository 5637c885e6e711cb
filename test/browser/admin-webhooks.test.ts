import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainNav } from '../support/browser.js';
import { verifyStandardWebhook } from '../support/standard-webhooks.js';
import { type ReceiverServer, startReceiver } from '../support/webhook-receiver.node.js';
import {
  apiCall,
  type Cms,
  createAdmin,
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
const ADMIN = 'admin@example.com';

/** The Webhooks screen in Chromium against the real Node server, delivering to a real receiver. */
describe('admin webhooks', () => {
  let cms: Cms;
  let token: string;
  let receiver: ReceiverServer;
  beforeAll(async () => {
    // The receiver listens on 127.0.0.1, which only this setting lets a webhook reach.
    cms = await startCms({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    token = await createOwner(cms.server, OWNER);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await cms?.stop();
  });

  it('creates a webhook whose secret is shown once, tests it, lists its deliveries, pauses and deletes it', async () => {
    const base = cms.server.url;
    const endpoint = receiver.endpoint();
    const { page, context, problems } = await newPage(cms);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await signIn(page, base, OWNER);
    await (await mainNav(page)).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No webhooks yet.').waitFor(POLL);

    // Checked before sending.
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page
      .getByRole('alert')
      .getByText(/Give the address that receives the events/)
      .waitFor(POLL);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('webhook-url');
    await page.getByLabel('Address').fill(endpoint.url);
    await page.getByLabel(/^article\.published/).uncheck();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('alert').getByText('Choose at least one event.').waitFor(POLL);

    await page.getByLabel(/^article\.published/).check();
    await page.getByLabel(/^article\.deleted/).check();
    await page.getByLabel(/^Description/).fill('Rebuild the site');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const shown = page.getByTestId('new-secret');
    await shown.waitFor(POLL);
    const secret = await page.getByLabel('Secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('secret-heading');
    await shown.getByRole('button', { name: 'Copy' }).click();
    await page.getByTestId('copy-status').getByText('Copied to the clipboard.').waitFor(POLL);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shown.getByRole('button', { name: 'I have stored it' }).click();
    await expect.poll(() => page.getByTestId('new-secret').count(), POLL).toBe(0);

    const row = page.getByTestId('webhook-list').locator(':scope > li', { hasText: endpoint.url });
    expect(await row.locator('.scopes').textContent()).toBe('article.publishedarticle.deleted');
    await expectNoSideScroll(page);

    // The test message, signed with the secret shown.
    await row.getByRole('button', { name: 'Send test' }).click();
    await page
      .getByTestId('webhooks-status')
      .getByText(/^Test delivered: .* answered 204\.$/)
      .waitFor(POLL);
    const [test] = await endpoint.received();
    const now = Math.floor(Date.now() / 1000);
    expect(await verifyStandardWebhook(secret, test!.headers, test!.body, now)).toEqual({ ok: true });
    expect(JSON.parse(test!.body).type).toBe('webhook.test');

    // A real event, then the list of deliveries.
    const { body } = await apiCall<{ article: { id: string } }>(cms.server, 'POST', '/v1/articles', token, {
      title: 'Out',
    });
    await apiCall(cms.server, 'POST', `/v1/articles/${body.article.id}/publish`, token);
    await expect.poll(async () => (await endpoint.received()).length, POLL).toBe(2);
    await row.getByRole('button', { name: 'Deliveries' }).click();
    const deliveries = row.getByTestId('deliveries');
    await expect.poll(() => deliveries.locator('li').count(), POLL).toBe(2);
    expect(await deliveries.locator('li').first().textContent()).toMatch(
      /article\.published · try 1 · 204 · delivered/,
    );
    expect(await deliveries.locator('li').last().textContent()).toMatch(/webhook\.test · try 1 · 204 · delivered/);
    await screenshots(page, 'webhooks');

    // A failing endpoint: the test says so.
    await endpoint.answer([500]);
    await row.getByRole('button', { name: 'Send test' }).click();
    await page
      .getByTestId('webhooks-status')
      .getByText(/^Test not delivered: .* answered 500\.$/)
      .waitFor(POLL);

    await row.getByRole('button', { name: 'Pause' }).click();
    await row.getByText('paused').waitFor(POLL);
    expect(
      (await apiCall<{ webhook: { active: boolean } }>(cms.server, 'GET', `/v1/webhooks/${await idOf()}`, token)).body
        .webhook.active,
    ).toBe(false);
    await row.getByRole('button', { name: 'Resume' }).click();
    await row.getByRole('button', { name: 'Pause' }).waitFor(POLL);

    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await page
      .getByText('No webhooks yet.')
      .or(page.getByTestId('webhooks-status').getByText(/was deleted/))
      .first()
      .waitFor(POLL);
    expect((await apiCall<{ items: unknown[] }>(cms.server, 'GET', '/v1/webhooks', token)).body.items).toEqual([]);
    expectNoProblems(problems);

    async function idOf(): Promise<string> {
      const list = await apiCall<{ items: { id: string; url: string }[] }>(cms.server, 'GET', '/v1/webhooks', token);
      return list.body.items.find((w) => w.url === endpoint.url)!.id;
    }
  });

  it('tells an admin that only the owner manages webhooks, and shows no nav entry', async () => {
    await createAdmin(cms.server, token, ADMIN);
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, ADMIN);
    expect(await (await mainNav(page)).getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    await page.goto(`${base}/webhooks`);
    await page.getByText('Only the owner manages webhooks.').waitFor(POLL);
    expectNoProblems(problems);
  });
});
