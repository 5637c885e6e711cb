import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, inviteAdmin, registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness, ApiTarget, SetupApi } from '../../../support/api-harness.js';
import { verifyStandardWebhook } from '../../../support/standard-webhooks.js';
import { runJobs, subscribe, verified } from '../../../support/webhook-flows.js';

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

    const hook = (receiver: { url: string }, events: string[], description?: string) =>
      subscribe(api, owner, receiver.url, events, description);

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
      const a = await hook(articles, [
        'article.created',
        'article.updated',
        'article.published',
        'article.unpublished',
        'article.deleted',
      ]);
      const d = await hook(deletes, ['article.deleted']);
      const article = await createArticle(api, owner, {
        title: 'Signed',
        body: 'secret body text',
        excerpt: 'A summary.',
      });
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

      const messages = await verified(api, await articles.received(), a.secret);
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

      const onlyDeletes = await verified(api, await deletes.received(), d.secret);
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

    it('sends a signed test message now and answers how it went', async () => {
      const receiver = await target.webhookReceiver();
      const { webhook, secret } = await hook(receiver, ['image.uploaded']);
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
      const [message] = await verified(api, await receiver.received(), secret);
      expect(message).toMatchObject({ type: 'webhook.test', data: { webhookId: webhook.id } });
      // A failed test is not retried.
      await receiver.answer([500]);
      const failed = await (
        await api.request(`/v1/webhooks/${webhook.id}/test`, { method: 'POST', token: owner })
      ).json();
      expect(failed.attempt).toMatchObject({ status: 'failed', statusCode: 500, nextAttemptAt: null });
      api.clock.advance(3600 * 1000);
      await runJobs(api);
      expect(await receiver.received()).toHaveLength(2);
      await api.request(`/v1/webhooks/${webhook.id}`, { method: 'DELETE', token: owner });
    });
  });
}
