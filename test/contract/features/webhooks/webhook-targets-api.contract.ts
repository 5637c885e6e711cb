import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness, ApiTarget, SetupApi } from '../../../support/api-harness.js';

/** Webhook targets per docs/api.md#webhooks: nothing private, at create, at update, and at delivery. */
export function runWebhookTargetsApiContract(name: string, setup: SetupApi, target: ApiTarget) {
  describe(`webhook targets without WEBHOOK_ALLOW_PRIVATE_TARGETS (${name})`, () => {
    let strict: ApiHarness;
    let token: string;
    beforeAll(async () => {
      strict = await setup();
      token = (await registerOwner(strict, 'strict-owner@example.com')).token;
    });
    afterAll(async () => {
      await strict?.cleanup();
    });

    it('refuses loopback, private, link-local, CGNAT, multicast and metadata targets at create and update', async () => {
      const refused = [
        'http://127.0.0.1:8080/hook',
        'http://localhost/hook',
        'http://api.localhost/hook',
        'http://10.1.2.3/',
        'http://172.16.0.1/',
        'http://192.168.1.1/',
        'http://100.64.0.1/',
        'http://169.254.169.254/latest/meta-data',
        'http://metadata.google.internal/computeMetadata/v1/',
        'http://224.0.0.1/',
        'http://0.0.0.0/',
        'http://[::1]/',
        'http://[::ffff:127.0.0.1]/',
        'http://[::ffff:a9fe:a9fe]/',
        'http://[fd00:ec2::254]/',
        'http://[fe80::1]/',
        'http://2130706433/',
        'http://0x7f.1/',
        'http://intranet/',
      ];
      for (const url of refused) {
        const res = await strict.request('/v1/webhooks', {
          method: 'POST',
          token,
          json: { url, events: ['article.created'] },
        });
        expect(res.status, url).toBe(400);
        expect((await errorOf(res)).issues, url).toEqual([
          { path: 'url', message: expect.stringMatching(/^url must not point at /) },
        ]);
      }
      // The reason reads as one sentence naming what the caller gave (the admin shows it as "Address must not …").
      for (const [url, message] of [
        ['http://127.0.0.1:8080/hook', 'url must not point at a loopback address (127.0.0.1)'],
        ['http://localhost/hook', 'url must not point at a local name (localhost)'],
        ['http://intranet/', 'url must not point at a local, single-label name (intranet)'],
      ]) {
        const res = await strict.request('/v1/webhooks', {
          method: 'POST',
          token,
          json: { url, events: ['article.created'] },
        });
        expect((await errorOf(res)).message, url).toBe(message);
      }
      const created = await strict.request('/v1/webhooks', {
        method: 'POST',
        token,
        json: { url: 'https://93.184.215.14/hook', events: ['article.created'] },
      });
      expect(created.status).toBe(201);
      const { webhook } = await created.json();
      const patch = await strict.request(`/v1/webhooks/${webhook.id}`, {
        method: 'PATCH',
        token,
        json: { url: 'http://[::ffff:10.0.0.1]/' },
      });
      expect(patch.status).toBe(400);
      expect((await (await strict.request('/v1/webhooks', { token })).json()).items).toHaveLength(1);
      // No network in the tests: nothing may try that address.
      await strict.request(`/v1/webhooks/${webhook.id}`, { method: 'DELETE', token });
    });

    it('refuses them again at delivery: nothing reaches a private address', async () => {
      const receiver = await target.webhookReceiver();
      const res = await strict.request('/v1/webhooks', {
        method: 'POST',
        token,
        json: { url: 'https://93.184.215.14/hook', events: ['article.created'] },
      });
      const { webhook } = await res.json();
      // What the check at create time could not see: the endpoint now leads to a loopback address.
      await strict.deps.repos.webhooks.update(webhook.id, { url: receiver.url }, strict.clock.now());
      await createArticle(strict, token, { title: 'Kept in' });
      expect(await receiver.received()).toEqual([]);
      const [attempt] = (await (await strict.request(`/v1/webhooks/${webhook.id}/deliveries`, { token })).json()).items;
      expect(attempt).toMatchObject({ status: 'retrying', statusCode: null });
      // The same words for every refusal: the log never names the address a name resolved to.
      expect(attempt.error).toBe('refused: private address');
    });
  });
}
