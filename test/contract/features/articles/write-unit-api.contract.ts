import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, registerOwner, upload } from '../../../support/api-flows.js';
import type { ApiHarness, ApiTarget, SetupApi, TestResponse } from '../../../support/api-harness.js';
import { PNG_1x1 } from '../../../support/images.js';
import { countRows, failInserts } from '../../../support/test-database.js';
import { subscribe, runJobs as tick } from '../../../support/webhook-flows.js';

const MINUTE = 60_000;
const ARTICLE_EVENTS = [
  'article.created',
  'article.updated',
  'article.published',
  'article.unpublished',
  'article.deleted',
  'image.uploaded',
  'image.deleted',
];

/** What a write leaves besides the article: activity entries, outbox events and their deliveries. */
async function recorded(api: ApiHarness) {
  return {
    entries: (await api.deps.activityLog.count({})).total,
    events: await countRows(api.database, 'webhook_events'),
    deliveries: await countRows(api.database, 'webhook_deliveries'),
  };
}

/**
 * A write and what it causes are one unit (docs/architecture.md#a-write-is-one-unit):
 * every article write, by a route or by the scheduler, records exactly one
 * activity entry and one outbox event with a delivery per subscriber, and
 * when the database refuses any of those rows the write fails and leaves
 * nothing, the article included.
 */
export function runArticleWriteUnitApiContract(name: string, setup: SetupApi, target: ApiTarget) {
  for (const log of ['the default activity log', 'the activity log in the database'] as const) {
    describe(`article writes and their consequences as one unit, with ${log} (${name})`, () => {
      let api: ApiHarness;
      let owner: string;
      beforeAll(async () => {
        api = await setup({
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          ...(log === 'the activity log in the database' && { ACTIVITY_LOG_STORE: 'database' }),
        });
        owner = (await registerOwner(api, 'owner@example.com')).token;
        for (let i = 0; i < 2; i++) await subscribe(api, owner, (await target.webhookReceiver()).url, ARTICLE_EVENTS);
      });
      afterAll(async () => {
        await api?.cleanup();
      });

      const path = (id: string, tail = '') => `/v1/articles/${id}${tail}`;
      const read = async (id: string) => (await api.request(path(id), { token: owner })).json();
      const writes = (id: string) => ({
        edit: () => api.request(path(id), { method: 'PATCH', token: owner, json: { title: 'Edited' } }),
        seo: () => api.request(path(id, '/seo'), { method: 'PUT', token: owner, json: { metaTitle: 'Meta' } }),
        publish: () => api.request(path(id, '/publish'), { method: 'POST', token: owner }),
        unpublish: () => api.request(path(id, '/unpublish'), { method: 'POST', token: owner }),
        delete: () => api.request(path(id), { method: 'DELETE', token: owner }),
      });
      const create = () => api.request('/v1/articles', { method: 'POST', token: owner, json: { title: 'New one' } });
      const newestEvent = async () =>
        (await api.database.query('SELECT type FROM webhook_events ORDER BY id DESC LIMIT 1'))[0]?.type;

      it('records exactly one activity entry, one event and a delivery per subscriber for each write', async () => {
        const expectOneEach = async (write: () => Promise<TestResponse>, type: string) => {
          const before = await recorded(api);
          const res = await write();
          expect(res.status).toBeLessThan(300);
          expect(await recorded(api)).toEqual({
            entries: before.entries + 1,
            events: before.events + 1,
            deliveries: before.deliveries + 2,
          });
          expect(await newestEvent()).toBe(type);
          return res;
        };
        const { article } = await (await expectOneEach(create, 'article.created')).json();
        const uploaded = await expectOneEach(
          () => upload(api, owner, article.id, PNG_1x1, 'a.png', 'image/png'),
          'image.uploaded',
        );
        const { image } = await uploaded.json();
        await expectOneEach(
          () => api.request(`/v1/media/${image.id}`, { method: 'DELETE', token: owner }),
          'image.deleted',
        );
        const w = writes(article.id);
        await expectOneEach(w.edit, 'article.updated');
        await expectOneEach(w.seo, 'article.updated');
        await expectOneEach(w.publish, 'article.published');
        await expectOneEach(w.unpublish, 'article.unpublished');
        await expectOneEach(w.delete, 'article.deleted');
        const [entry] = await api.deps.activityLog.list({ limit: 1 });
        expect(entry).toMatchObject({ action: 'article.delete', subjectId: article.id, actorType: 'user' });
      });

      const refusing =
        log === 'the activity log in the database' ? ['webhook_deliveries', 'activity_log'] : ['webhook_events'];
      for (const table of refusing) {
        it(`fails every write, and leaves the article as it was, when the database refuses a row of ${table}`, async () => {
          const article = await createArticle(api, owner, { title: 'Kept' });
          const shown = (await (await upload(api, owner, article.id, PNG_1x1, 'a.png', 'image/png')).json()).image;
          const articlesBefore = await countRows(api.database, 'articles');
          const imagesBefore = await countRows(api.database, 'images');
          const before = await recorded(api);
          const restore = await failInserts(api.database, table);
          try {
            const image = () => upload(api, owner, article.id, PNG_1x1, 'a.png', 'image/png');
            const unshow = () => api.request(`/v1/media/${shown.id}`, { method: 'DELETE', token: owner });
            for (const write of [create, image, unshow, ...Object.values(writes(article.id))]) {
              const res = await write();
              expect(res.status).toBe(500);
              expect(await res.text()).not.toMatch(/injected|insert|select/i);
            }
          } finally {
            await restore();
          }
          expect(await countRows(api.database, 'articles')).toBe(articlesBefore);
          expect(await countRows(api.database, 'images')).toBe(imagesBefore);
          expect((await read(article.id)).article).toMatchObject({
            title: 'Kept',
            status: 'offline',
            version: article.version,
            seo: { metaTitle: null },
          });
          expect(await recorded(api)).toEqual(before);
          // Refused no more: the same write goes through, with its consequences.
          expect((await writes(article.id).edit()).status).toBe(200);
          expect((await recorded(api)).events).toBe(before.events + 1);
        });
      }

      it('publishes nothing on schedule while the outbox refuses its event, and publishes it once it accepts', async () => {
        const article = await createArticle(api, owner, { title: 'Due' });
        const publishAt = new Date(api.clock.now().getTime() + 2 * MINUTE).toISOString();
        const res = await api.request(path(article.id, '/schedule'), {
          method: 'POST',
          token: owner,
          json: { publishAt },
        });
        expect(res.status).toBe(200);
        api.clock.advance(3 * MINUTE);
        const before = await recorded(api);
        const restore = await failInserts(api.database, 'webhook_deliveries');
        try {
          await tick(api).catch(() => undefined);
        } finally {
          await restore();
        }
        expect((await read(article.id)).article).toMatchObject({ status: 'offline', scheduledAt: publishAt });
        expect(await recorded(api)).toEqual(before);
        await tick(api);
        expect((await read(article.id)).article).toMatchObject({ status: 'online', scheduledAt: null });
        const after = await recorded(api);
        expect(after.entries).toBe(before.entries + 1);
        expect(after.events).toBe(before.events + 1);
        expect(after.deliveries).toBeGreaterThanOrEqual(before.deliveries + 2);
        expect(await newestEvent()).toBe('article.published');
      });
    });
  }
}
