import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_DELAYS_MS } from '../../../../worker/src/features/webhooks/webhook-delivery.js';
import { createArticle, registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness, ApiTarget, SetupApi } from '../../../support/api-harness.js';
import { verifyStandardWebhook } from '../../../support/standard-webhooks.js';
import { runJobs, subscribe } from '../../../support/webhook-flows.js';

/** Webhook delivery per docs/api.md#webhooks: retries with backoff after failures, giving up, pausing, never failing the request. */
export function runWebhookDeliveryApiContract(name: string, setup: SetupApi, target: ApiTarget) {
  describe(`webhook delivery (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    beforeAll(async () => {
      // The receiver listens on 127.0.0.1, which only this setting lets through.
      api = await setup({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
      owner = (await registerOwner(api, 'owner@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const hook = (receiver: { url: string }, events: string[]) => subscribe(api, owner, receiver.url, events);

    it('retries after a 500 with backoff, with the same message id, until the receiver takes it', async () => {
      const receiver = await target.webhookReceiver();
      await receiver.answer([500, 503]);
      const { webhook, secret } = await hook(receiver, ['article.created']);
      const article = await createArticle(api, owner, { title: 'Retried' });
      // The first attempt ran right after the request; the second is not due yet.
      expect((await receiver.received()).map((r) => r.status)).toEqual([500]);
      await runJobs(api);
      expect(await receiver.received()).toHaveLength(1);
      let page = await (await api.request(`/v1/webhooks/${webhook.id}/deliveries`, { token: owner })).json();
      expect(page.items).toHaveLength(1);
      expect(page.items[0]).toMatchObject({
        attempt: 1,
        status: 'retrying',
        statusCode: 500,
        type: 'article.created',
        error: null,
      });
      expect(new Date(page.items[0].nextAttemptAt).getTime() - new Date(page.items[0].at).getTime()).toBe(
        RETRY_DELAYS_MS[0],
      );

      api.clock.advance(RETRY_DELAYS_MS[0]! + 1000);
      await runJobs(api);
      api.clock.advance(RETRY_DELAYS_MS[1]! + 1000);
      await runJobs(api);
      api.clock.advance(24 * 3600 * 1000);
      await runJobs(api);
      const received = await receiver.received();
      expect(received.map((r) => r.status)).toEqual([500, 503, 204]);
      expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect(new Set(received.map((r) => r.headers['webhook-timestamp'])).size).toBe(3);
      expect(new Set(received.map((r) => r.body)).size).toBe(1);
      for (const r of received) {
        const at = Number(r.headers['webhook-timestamp']);
        expect(await verifyStandardWebhook(secret, r.headers, r.body, at)).toEqual({ ok: true });
      }
      expect(JSON.parse(received[0]!.body).data.id).toBe(article.id);
      page = await (await api.request(`/v1/webhooks/${webhook.id}/deliveries`, { token: owner })).json();
      expect(
        page.items.map((i: { attempt: number; status: string; statusCode: number }) => [
          i.attempt,
          i.status,
          i.statusCode,
        ]),
      ).toEqual([
        [3, 'delivered', 204],
        [2, 'retrying', 503],
        [1, 'retrying', 500],
      ]);
      expect(page.items[0].nextAttemptAt).toBeNull();
      await api.request(`/v1/webhooks/${webhook.id}`, { method: 'DELETE', token: owner });
    });

    it('gives up after the last attempt, and holds deliveries for a paused endpoint until it is active again', async () => {
      const receiver = await target.webhookReceiver();
      await receiver.answer(Array.from({ length: 20 }, () => 500));
      const { webhook } = await hook(receiver, ['article.created']);
      await createArticle(api, owner, { title: 'Never taken' });
      for (const delay of RETRY_DELAYS_MS) {
        api.clock.advance(delay + 1000);
        await runJobs(api);
      }
      api.clock.advance(24 * 3600 * 1000);
      await runJobs(api);
      const attempts = (
        await (await api.request(`/v1/webhooks/${webhook.id}/deliveries?limit=100`, { token: owner })).json()
      ).items;
      expect(attempts).toHaveLength(RETRY_DELAYS_MS.length + 1);
      expect(attempts[0]).toMatchObject({ status: 'failed', attempt: RETRY_DELAYS_MS.length + 1, nextAttemptAt: null });
      expect(await receiver.received()).toHaveLength(RETRY_DELAYS_MS.length + 1);
      // The spec's minimum: at least five attempts over at least an hour.
      const span = new Date(attempts[0].at).getTime() - new Date(attempts.at(-1).at).getTime();
      expect(attempts.length).toBeGreaterThanOrEqual(5);
      expect(span).toBeGreaterThanOrEqual(3600 * 1000);

      // Paused: what was queued waits, nothing new is queued, and it resumes when active again.
      const sent = RETRY_DELAYS_MS.length + 1;
      await receiver.answer([500]);
      await createArticle(api, owner, { title: 'Held' });
      await api.request(`/v1/webhooks/${webhook.id}`, { method: 'PATCH', token: owner, json: { active: false } });
      await createArticle(api, owner, { title: 'While paused' });
      api.clock.advance(3600 * 1000);
      await runJobs(api);
      expect(await receiver.received()).toHaveLength(sent + 1);
      await api.request(`/v1/webhooks/${webhook.id}`, { method: 'PATCH', token: owner, json: { active: true } });
      await runJobs(api);
      const after = await receiver.received();
      expect(after.slice(sent).map((r) => [r.status, JSON.parse(r.body).data.title])).toEqual([
        [500, 'Held'],
        [204, 'Held'],
      ]);
      await api.request(`/v1/webhooks/${webhook.id}`, { method: 'DELETE', token: owner });
    });

    it('never fails the request that caused an event, whatever the endpoint does', async () => {
      // Nothing listens on port 1 (workerd logs the refused connection itself, as an "uncaught exception").
      const { webhook } = await hook({ url: 'http://127.0.0.1:1/closed' }, ['article.created']);
      const res = await api.request('/v1/articles', { method: 'POST', token: owner, json: { title: 'Still created' } });
      expect(res.status).toBe(201);
      const [attempt] = (await (await api.request(`/v1/webhooks/${webhook.id}/deliveries`, { token: owner })).json())
        .items;
      expect(attempt).toMatchObject({ status: 'retrying', statusCode: null, error: expect.any(String) });
      await api.request(`/v1/webhooks/${webhook.id}`, { method: 'DELETE', token: owner });
    });
  });
}
