import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness, ApiTarget, SetupApi } from '../../../support/api-harness.js';
import { verifyStandardWebhook } from '../../../support/standard-webhooks.js';
import { subscribe, runJobs as tick } from '../../../support/webhook-flows.js';

const UNKNOWN = '0190a000-0000-7000-8000-000000000000';
const MINUTE = 60_000;

/** Scheduled publication per docs/api.md#scheduling: the routes, and the scheduler publishing exactly once. */
export function runSchedulingApiContract(name: string, setup: SetupApi, target: ApiTarget) {
  describe(`scheduling API (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    beforeAll(async () => {
      api = await setup({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
      owner = (await registerOwner(api, 'owner@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const inMinutes = (m: number) => new Date(api.clock.now().getTime() + m * MINUTE).toISOString();
    const schedule = (id: string, publishAt: unknown, token = owner) =>
      api.request(`/v1/articles/${id}/schedule`, { method: 'POST', token, json: { publishAt } });
    const read = async (id: string, token?: string) => api.request(`/v1/articles/${id}`, token ? { token } : {});
    const runJobs = () => tick(api);

    it('schedules an offline article, which stays offline with scheduledAt, and cancels', async () => {
      const article = await createArticle(api, owner, { title: 'Later' });
      expect(article.scheduledAt).toBeNull();
      const at = inMinutes(30);
      const res = await schedule(article.id, at);
      expect(res.status).toBe(200);
      const { article: scheduled } = await res.json();
      expect(scheduled).toMatchObject({ id: article.id, status: 'offline', scheduledAt: at, publishedAt: null });
      expect((await (await read(article.id, owner)).json()).article.scheduledAt).toBe(at);
      expect((await read(article.id)).status).toBe(404);
      // Another time replaces it; an offset is read as the instant it names.
      const offset = new Date(Date.parse(inMinutes(60)));
      const withOffset = `${new Date(offset.getTime() + 2 * 3600_000).toISOString().slice(0, 23)}+02:00`;
      expect((await (await schedule(article.id, withOffset)).json()).article.scheduledAt).toBe(offset.toISOString());

      expect(
        (await api.request(`/v1/articles/${article.id}/schedule`, { method: 'DELETE', token: owner })).status,
      ).toBe(204);
      expect((await (await read(article.id, owner)).json()).article.scheduledAt).toBeNull();
      expect((await api.request(`/v1/articles/${UNKNOWN}/schedule`, { method: 'DELETE', token: owner })).status).toBe(
        404,
      );
    });

    it('refuses a time that is not in the future, bad input, unknown and online articles', async () => {
      const article = await createArticle(api, owner);
      for (const publishAt of [
        inMinutes(-1),
        api.clock.now().toISOString(),
        'tomorrow',
        12,
        null,
        '2026-13-01T00:00:00Z',
      ]) {
        const res = await schedule(article.id, publishAt);
        expect(res.status, String(publishAt)).toBe(400);
        const error = await errorOf(res);
        expect(error.issues?.[0], String(publishAt)).toMatchObject({ path: 'publishAt' });
      }
      expect((await schedule(article.id, inMinutes(60 * 24 * 3661))).status).toBe(400);
      expect((await schedule(UNKNOWN, inMinutes(5))).status).toBe(404);
      await api.request(`/v1/articles/${article.id}/publish`, { method: 'POST', token: owner });
      const online = await schedule(article.id, inMinutes(5));
      expect(online.status).toBe(409);
      expect((await errorOf(online)).code).toBe('conflict');
      expect((await schedule(article.id, inMinutes(5), '')).status).toBe(401);
    });

    it('answers 204 to a writer who may not read offline articles', async () => {
      const key = await api.request('/v1/api-keys', {
        method: 'POST',
        token: owner,
        json: { name: 'writer', scopes: ['content:write'] },
      });
      const writer = (await key.json()).secret as string;
      const article = await createArticle(api, writer);
      const res = await schedule(article.id, inMinutes(5), writer);
      expect(res.status).toBe(204);
      expect((await (await read(article.id, owner)).json()).article.scheduledAt).not.toBeNull();
    });

    it('publishing or unpublishing by hand clears the schedule', async () => {
      const a = await createArticle(api, owner);
      const b = await createArticle(api, owner);
      await schedule(a.id, inMinutes(5));
      await schedule(b.id, inMinutes(5));
      const published = await (
        await api.request(`/v1/articles/${a.id}/publish`, { method: 'POST', token: owner })
      ).json();
      expect(published.article).toMatchObject({ status: 'online', scheduledAt: null });
      const unpublished = await (
        await api.request(`/v1/articles/${b.id}/unpublish`, { method: 'POST', token: owner })
      ).json();
      expect(unpublished.article).toMatchObject({ status: 'offline', scheduledAt: null });
    });

    it('publishes due articles as the system, exactly once across overlapping runs, and fires article.published once', async () => {
      const receiver = await target.webhookReceiver();
      const hook = await subscribe(api, owner, receiver.url, ['article.published']);
      const soon = await createArticle(api, owner, { title: 'Soon' });
      const later = await createArticle(api, owner, { title: 'Later still' });
      await schedule(soon.id, inMinutes(2));
      await schedule(later.id, inMinutes(120));

      await runJobs();
      expect((await read(soon.id)).status).toBe(404);

      api.clock.advance(3 * MINUTE);
      // Overlapping ticks (two cron invocations, several Node instances): one publication.
      await Promise.all([runJobs(), runJobs(), runJobs(), runJobs()]);
      await runJobs();
      const res = await read(soon.id);
      expect(res.status).toBe(200);
      const { article } = await res.json();
      expect(article).toMatchObject({ status: 'online', scheduledAt: null });
      expect(Date.parse(article.publishedAt)).toBeGreaterThan(Date.parse(article.createdAt));
      expect((await (await read(later.id, owner)).json()).article).toMatchObject({ status: 'offline' });

      const messages = (await receiver.received()).filter((r) => JSON.parse(r.body).data.id === soon.id);
      expect(messages).toHaveLength(1);
      const at = Number(messages[0]!.headers['webhook-timestamp']);
      expect(await verifyStandardWebhook(hook.secret, messages[0]!.headers, messages[0]!.body, at)).toEqual({
        ok: true,
      });
      expect(JSON.parse(messages[0]!.body)).toMatchObject({
        type: 'article.published',
        data: { id: soon.id, title: 'Soon', status: 'online', scheduledAt: null, publishedAt: article.publishedAt },
      });

      const log = await (await api.request('/v1/activity?action=article.publish', { token: owner })).json();
      const entries = log.items.filter((e: { subjectId: string }) => e.subjectId === soon.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ actorType: 'system', actorId: null });
      await api.request(`/v1/webhooks/${hook.webhook.id}`, { method: 'DELETE', token: owner });
    });
  });
}
