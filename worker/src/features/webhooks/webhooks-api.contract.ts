import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, inviteAdmin, registerOwner } from '../../../../test/support/api-flows.js';
import type { ApiHarness, ApiTarget, SetupApi } from '../../../../test/support/api-harness.js';
import { verifyStandardWebhook } from '../../../../test/support/standard-webhooks.js';
import type { ReceivedWebhook, WebhookReceiver } from '../../../../test/support/webhook-receiver.js';
import { scheduledJobs } from '../../app/services.js';
import { RETRY_DELAYS_MS } from './webhook-delivery.js';

const UNKNOWN = '0190a000-0000-7000-8000-000000000000';

/** Webhooks per docs/api.md#webhooks, against a real receiver that checks every signature as the spec says. */
export function runWebhooksApiContract(name: string, setup: SetupApi, target: ApiTarget) {
  describe(`webhooks API (${name})`, () => {
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

    async function subscribe(receiver: WebhookReceiver, events: string[], description?: string) {
      const res = await api.request('/v1/webhooks', {
        method: 'POST',
        token: owner,
        json: { url: receiver.url, events, ...(description !== undefined && { description }) },
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { webhook: { id: string; [k: string]: unknown }; secret: string };
    }

    /** Every message is signed as Standard Webhooks says; returns the parsed bodies. */
    async function verified(received: ReceivedWebhook[], secret: string) {
      const now = Math.floor(api.clock.now().getTime() / 1000);
      for (const r of received) {
        expect(await verifyStandardWebhook(secret, r.headers, r.body, now)).toEqual({ ok: true });
        expect(r.headers['content-type']).toMatch(/^application\/json/);
      }
      return received.map(
        (r) => JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, unknown> },
      );
    }

    const runJobs = () => scheduledJobs(api.deps)(api.clock.now());

    it('is the owner’s alone', async () => {
      const admin = await inviteAdmin(api, owner, 'admin@example.com');
      expect((await api.request('/v1/webhooks')).status).toBe(401);
      expect((await api.request('/v1/webhooks', { token: admin.token })).status).toBe(403);
      const key = await api.request('/v1/api-keys', {
        method: 'POST',
        token: owner,
        json: { name: 'all', scopes: ['content:read', 'content:write', 'media:write'] },
      });
      const { secret } = await key.json();
      expect((await api.request('/v1/webhooks', { token: secret })).status).toBe(403);
      const post = await api.request('/v1/webhooks', {
        method: 'POST',
        token: admin.token,
        json: { url: 'https://hooks.example/x', events: ['article.created'] },
      });
      expect(post.status).toBe(403);
    });

    it('creates an endpoint whose secret is shown once, lists, reads, changes and deletes it', async () => {
      const receiver = await target.webhookReceiver();
      const res = await api.request('/v1/webhooks', {
        method: 'POST',
        token: owner,
        json: { url: receiver.url, events: ['article.created', 'image.deleted'], description: ' Site build ', x: 1 },
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { webhook, secret } = await res.json();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(atob(secret.slice(6))).toHaveLength(32);
      expect(Object.keys(webhook).sort()).toEqual([
        'active',
        'createdAt',
        'description',
        'events',
        'id',
        'updatedAt',
        'url',
      ]);
      expect(webhook).toMatchObject({
        url: receiver.url,
        events: ['article.created', 'image.deleted'],
        description: 'Site build',
        active: true,
      });

      const list = await (await api.request('/v1/webhooks', { token: owner })).json();
      expect(list.items.map((w: { id: string }) => w.id)).toContain(webhook.id);
      expect(JSON.stringify(list)).not.toContain(secret.slice(6));
      expect((await (await api.request(`/v1/webhooks/${webhook.id}`, { token: owner })).json()).webhook).toEqual(
        webhook,
      );

      const patched = await api.request(`/v1/webhooks/${webhook.id}`, {
        method: 'PATCH',
        token: owner,
        json: { events: ['article.deleted'], description: null, active: false },
      });
      expect(patched.status).toBe(200);
      const changed = (await patched.json()).webhook;
      expect(changed).toMatchObject({ events: ['article.deleted'], description: null, active: false });
      // A body that names no field changes nothing, updatedAt included.
      api.clock.advance(1000);
      const empty = await api.request(`/v1/webhooks/${webhook.id}`, { method: 'PATCH', token: owner, json: {} });
      expect((await empty.json()).webhook).toEqual(changed);

      expect((await api.request(`/v1/webhooks/${webhook.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
      expect((await api.request(`/v1/webhooks/${webhook.id}`, { token: owner })).status).toBe(404);
      expect((await api.request(`/v1/webhooks/${webhook.id}`, { method: 'DELETE', token: owner })).status).toBe(404);
      expect((await api.request(`/v1/webhooks/${UNKNOWN}/deliveries`, { token: owner })).status).toBe(404);
      expect((await api.request(`/v1/webhooks/${UNKNOWN}/test`, { method: 'POST', token: owner })).status).toBe(404);
    });

    it('refuses bad input with 400 naming the field', async () => {
      const bad: [unknown, string][] = [
        [{ url: 'ftp://hooks.example/x', events: ['article.created'] }, 'url'],
        [{ url: 'https://user:pw@hooks.example/x', events: ['article.created'] }, 'url'],
        [{ url: 'not a url', events: ['article.created'] }, 'url'],
        [{ url: 'https://hooks.example/x', events: [] }, 'events'],
        [{ url: 'https://hooks.example/x', events: ['article.exploded'] }, 'events.0'],
        [{ url: 'https://hooks.example/x', events: ['article.created', 'article.created'] }, 'events'],
        [{ url: 'https://hooks.example/x', events: ['article.created'], description: 'x'.repeat(501) }, 'description'],
        [{ events: ['article.created'] }, 'url'],
      ];
      for (const [json, path] of bad) {
        const res = await api.request('/v1/webhooks', { method: 'POST', token: owner, json });
        expect(res.status, JSON.stringify(json)).toBe(400);
        const error = await errorOf(res);
        expect(error.code).toBe('invalid_request');
        expect(JSON.stringify(error.issues), JSON.stringify(json)).toContain(`"path":"${path}"`);
      }
    });

    it('delivers signed events to subscribers only, and the article without its body', async () => {
      const articles = await target.webhookReceiver();
      const deletes = await target.webhookReceiver();
      const a = await subscribe(articles, [
        'article.created',
        'article.updated',
        'article.published',
        'article.unpublished',
        'article.deleted',
      ]);
      const d = await subscribe(deletes, ['article.deleted']);
      const article = await createArticle(api, owner, { title: 'Signed', body: 'secret body text' });
      await api.request(`/v1/articles/${article.id}`, {
        method: 'PATCH',
        token: owner,
        json: { title: 'Signed again' },
      });
      await api.request(`/v1/articles/${article.id}`, { method: 'PATCH', token: owner, json: {} });
      await api.request(`/v1/articles/${article.id}/publish`, { method: 'POST', token: owner });
      await api.request(`/v1/articles/${article.id}/unpublish`, { method: 'POST', token: owner });
      await api.request(`/v1/articles/${article.id}/seo`, { method: 'PUT', token: owner, json: { metaTitle: 'M' } });
      await api.request(`/v1/articles/${article.id}`, { method: 'DELETE', token: owner });

      const messages = await verified(await articles.received(), a.secret);
      expect(messages.map((m) => m.type)).toEqual([
        'article.created',
        'article.updated',
        'article.published',
        'article.unpublished',
        'article.updated',
        'article.deleted',
      ]);
      for (const m of messages) {
        expect(Object.keys(m).sort()).toEqual(['data', 'timestamp', 'type']);
        expect(new Date(m.timestamp).toISOString()).toBe(m.timestamp);
        expect(m.data.id).toBe(article.id);
      }
      expect(messages[2]!.data).toMatchObject({ title: 'Signed again', status: 'online' });
      expect(messages[2]!.data).not.toHaveProperty('body');
      expect(JSON.stringify(messages)).not.toContain('secret body text');
      expect(messages[5]!.data).toEqual({ id: article.id });
      const ids = (await articles.received()).map((r) => r.headers['webhook-id']);
      expect(new Set(ids).size).toBe(ids.length);

      const onlyDeletes = await verified(await deletes.received(), d.secret);
      expect(onlyDeletes.map((m) => m.type)).toEqual(['article.deleted']);
      // Another endpoint's secret does not verify these.
      const [first] = await articles.received();
      const verdict = await verifyStandardWebhook(
        d.secret,
        first!.headers,
        first!.body,
        Math.floor(api.clock.now().getTime() / 1000),
      );
      expect(verdict.ok).toBe(false);
      await api.request(`/v1/webhooks/${a.webhook.id}`, { method: 'DELETE', token: owner });
      await api.request(`/v1/webhooks/${d.webhook.id}`, { method: 'DELETE', token: owner });
    });

    it('retries after a 500 with backoff, with the same message id, until the receiver takes it', async () => {
      const receiver = await target.webhookReceiver();
      await receiver.answer([500, 503]);
      const { webhook, secret } = await subscribe(receiver, ['article.created']);
      const article = await createArticle(api, owner, { title: 'Retried' });
      // The first attempt ran right after the request; the second is not due yet.
      expect((await receiver.received()).map((r) => r.status)).toEqual([500]);
      await runJobs();
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
      await runJobs();
      api.clock.advance(RETRY_DELAYS_MS[1]! + 1000);
      await runJobs();
      api.clock.advance(24 * 3600 * 1000);
      await runJobs();
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
      const { webhook } = await subscribe(receiver, ['article.created']);
      await createArticle(api, owner, { title: 'Never taken' });
      for (const delay of RETRY_DELAYS_MS) {
        api.clock.advance(delay + 1000);
        await runJobs();
      }
      api.clock.advance(24 * 3600 * 1000);
      await runJobs();
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
      await runJobs();
      expect(await receiver.received()).toHaveLength(sent + 1);
      await api.request(`/v1/webhooks/${webhook.id}`, { method: 'PATCH', token: owner, json: { active: true } });
      await runJobs();
      const after = await receiver.received();
      expect(after.slice(sent).map((r) => [r.status, JSON.parse(r.body).data.title])).toEqual([
        [500, 'Held'],
        [204, 'Held'],
      ]);
      await api.request(`/v1/webhooks/${webhook.id}`, { method: 'DELETE', token: owner });
    });

    it('sends a signed test message now and answers how it went', async () => {
      const receiver = await target.webhookReceiver();
      const { webhook, secret } = await subscribe(receiver, ['image.uploaded']);
      const ok = await api.request(`/v1/webhooks/${webhook.id}/test`, { method: 'POST', token: owner });
      expect(ok.status).toBe(200);
      const { attempt } = await ok.json();
      expect(attempt).toMatchObject({
        attempt: 1,
        status: 'delivered',
        statusCode: 204,
        type: 'webhook.test',
        nextAttemptAt: null,
      });
      const [message] = await verified(await receiver.received(), secret);
      expect(message).toMatchObject({ type: 'webhook.test', data: { webhookId: webhook.id } });
      // A failed test is not retried.
      await receiver.answer([500]);
      const failed = await (
        await api.request(`/v1/webhooks/${webhook.id}/test`, { method: 'POST', token: owner })
      ).json();
      expect(failed.attempt).toMatchObject({ status: 'failed', statusCode: 500, nextAttemptAt: null });
      api.clock.advance(3600 * 1000);
      await runJobs();
      expect(await receiver.received()).toHaveLength(2);
      await api.request(`/v1/webhooks/${webhook.id}`, { method: 'DELETE', token: owner });
    });

    it('never fails the request that caused an event, whatever the endpoint does', async () => {
      // Nothing listens on port 1 (workerd logs the refused connection itself, as an "uncaught exception").
      const { webhook } = await subscribe(
        { url: 'http://127.0.0.1:1/closed', received: async () => [], answer: async () => {} },
        ['article.created'],
      );
      const res = await api.request('/v1/articles', { method: 'POST', token: owner, json: { title: 'Still created' } });
      expect(res.status).toBe(201);
      const [attempt] = (await (await api.request(`/v1/webhooks/${webhook.id}/deliveries`, { token: owner })).json())
        .items;
      expect(attempt).toMatchObject({ status: 'retrying', statusCode: null, error: expect.any(String) });
      await api.request(`/v1/webhooks/${webhook.id}`, { method: 'DELETE', token: owner });
    });

    describe('without WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
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
        const [attempt] = (await (await strict.request(`/v1/webhooks/${webhook.id}/deliveries`, { token })).json())
          .items;
        expect(attempt).toMatchObject({ status: 'retrying', statusCode: null });
        expect(attempt.error).toMatch(/^refused: 127\.0\.0\.1 is a loopback address/);
      });
    });
  });
}
