import { describe, expect, it } from 'vitest';
import type { ScheduledPublication } from '../../../../worker/src/features/scheduling/scheduling.port.js';
import type { WebhookDelivery } from '../../../../worker/src/features/webhooks/webhooks.port.js';
import { freshRepositories, newId, type SetupRepositories, sampleArticle } from '../../../support/db-contract.js';
import { sampleWebhook } from '../../../support/webhook-samples.js';

const NOW = new Date('2026-11-26T10:00:00.000Z');
const MINUTE = 60_000;
const at = (minutes: number) => new Date(NOW.getTime() + minutes * MINUTE);

/** Scheduled publication, the same on D1, SQLite, MariaDB and PostgreSQL: above all, exactly once under races. */
export function runSchedulingRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`SchedulingRepository contract: ${name}`, () => {
    const db = freshRepositories(setup);

    async function article(overrides: Parameters<typeof sampleArticle>[0] = {}) {
      const input = sampleArticle(overrides);
      await db.repos.articles.create(input);
      return input;
    }

    /** A publication with its event and deliveries as the outbox's rows of the same write. */
    async function publication(articleId: string, scheduledAt: Date, webhookIds: string[] = [], version = 1) {
      const eventId = newId();
      const deliveries: WebhookDelivery[] = webhookIds.map((webhookId) => ({
        id: newId(),
        webhookId,
        eventId,
        status: 'pending',
        attempts: 0,
        maxAttempts: 7,
        nextAttemptAt: at(10),
        createdAt: at(10),
        updatedAt: at(10),
      }));
      const event = {
        id: eventId,
        type: 'article.published',
        dedupeKey: `${articleId}@${scheduledAt.toISOString()}`,
        body: `{"type":"article.published","data":{"id":"${articleId}"}}`,
        createdAt: at(10),
      };
      const also = [await db.repos.webhooks.outboxRows(event, deliveries)];
      const p: ScheduledPublication = { articleId, scheduledAt, version, now: at(10), also };
      return Object.assign(p, { event, deliveries });
    }

    it('schedules an offline article, refuses an online one, and cancels', async () => {
      const offline = await article();
      const online = await article({ status: 'online', publishedAt: NOW });
      expect(await db.repos.scheduling.schedule(offline.id, at(60), at(1))).toBe('scheduled');
      expect(await db.repos.articles.findById(offline.id)).toMatchObject({
        status: 'offline',
        scheduledAt: at(60),
        updatedAt: at(1),
      });
      expect(await db.repos.scheduling.schedule(online.id, at(60), at(1))).toBe('online');
      expect((await db.repos.articles.findById(online.id))?.scheduledAt).toBeNull();
      expect(await db.repos.scheduling.schedule(newId(), at(60), at(1))).toBeNull();
      expect(await db.repos.scheduling.schedule('nope', at(60), at(1))).toBeNull();

      expect(await db.repos.scheduling.unschedule(offline.id, at(2))).toBe(true);
      expect(await db.repos.articles.findById(offline.id)).toMatchObject({ scheduledAt: null, updatedAt: at(2) });
      // Nothing left to cancel: nothing written.
      expect(await db.repos.scheduling.unschedule(offline.id, at(3))).toBe(true);
      expect((await db.repos.articles.findById(offline.id))?.updatedAt).toEqual(at(2));
      expect(await db.repos.scheduling.unschedule(newId(), at(3))).toBe(false);
    });

    it('publishing or unpublishing by hand clears the schedule', async () => {
      const a = await article();
      const b = await article();
      await db.repos.scheduling.schedule(a.id, at(60), NOW);
      await db.repos.scheduling.schedule(b.id, at(60), NOW);
      expect((await db.repos.articles.setStatus(a.id, 'online', at(1)))?.scheduledAt).toBeNull();
      expect((await db.repos.articles.setStatus(b.id, 'offline', at(1)))?.scheduledAt).toBeNull();
      expect(await db.repos.scheduling.due(at(120), 10)).toEqual([]);
    });

    it('lists offline articles whose time has come, soonest first', async () => {
      const first = await article();
      const second = await article();
      const future = await article();
      await db.repos.scheduling.schedule(second.id, at(5), NOW);
      await db.repos.scheduling.schedule(first.id, at(3), NOW);
      await db.repos.scheduling.schedule(future.id, at(30), NOW);
      await article({ status: 'online', publishedAt: NOW });
      expect(await db.repos.scheduling.due(at(4), 10)).toEqual([{ id: first.id, scheduledAt: at(3) }]);
      expect((await db.repos.scheduling.due(at(10), 10)).map((d) => d.id)).toEqual([first.id, second.id]);
      expect((await db.repos.scheduling.due(at(10), 1)).map((d) => d.id)).toEqual([first.id]);
    });

    it('publishes a due article once, with its event and deliveries in the same write', async () => {
      const hook = sampleWebhook({ events: ['article.published'] });
      await db.repos.webhooks.create(hook);
      const a = await article();
      await db.repos.scheduling.schedule(a.id, at(5), NOW);
      const first = await publication(a.id, at(5), [hook.id]);
      expect(await db.repos.scheduling.publishDue(first)).toBe(true);
      expect(await db.repos.articles.findById(a.id)).toMatchObject({
        status: 'online',
        scheduledAt: null,
        publishedAt: at(10),
        updatedAt: at(10),
      });
      expect(await db.repos.webhooks.findEvent(first.event.id)).toEqual(first.event);
      expect((await db.repos.webhooks.due(at(10), 10)).map((d) => d.id)).toEqual([first.deliveries[0]!.id]);
      // The same publication again: nothing more.
      const again = await publication(a.id, at(5), [hook.id]);
      expect(await db.repos.scheduling.publishDue(again)).toBe(false);
      expect(await db.repos.webhooks.findEvent(again.event.id)).toBeNull();
      expect(await db.repos.webhooks.due(at(10), 10)).toHaveLength(1);
    });

    it('publishes nothing, and records nothing, for an article changed since it was read', async () => {
      const rescheduled = await article();
      const unpublished = await article();
      const gone = await article();
      for (const x of [rescheduled, unpublished, gone]) await db.repos.scheduling.schedule(x.id, at(5), NOW);
      await db.repos.scheduling.schedule(rescheduled.id, at(50), at(1));
      await db.repos.articles.setStatus(unpublished.id, 'offline', at(1));
      await db.repos.articles.delete(gone.id);
      for (const x of [rescheduled, unpublished, gone]) {
        const p = await publication(x.id, at(5));
        expect(await db.repos.scheduling.publishDue(p)).toBe(false);
        expect(await db.repos.webhooks.findEvent(p.event.id)).toBeNull();
      }
      expect((await db.repos.articles.findById(rescheduled.id))?.status).toBe('offline');
      // The old publishedAt survives a scheduled republication.
      // Edited since the scheduler read it: a new version, not published with the old one's event.
      const edited = await article();
      await db.repos.scheduling.schedule(edited.id, at(5), NOW);
      await db.repos.articles.update(edited.id, { title: 'Edited' }, at(1));
      const stale = await publication(edited.id, at(5));
      expect(await db.repos.scheduling.publishDue(stale)).toBe(false);
      expect(await db.repos.webhooks.findEvent(stale.event.id)).toBeNull();
      expect(await db.repos.scheduling.publishDue(await publication(edited.id, at(5), [], 2))).toBe(true);
      const republished = await article({ publishedAt: at(-100) });
      await db.repos.scheduling.schedule(republished.id, at(5), NOW);
      expect(await db.repos.scheduling.publishDue(await publication(republished.id, at(5)))).toBe(true);
      expect((await db.repos.articles.findById(republished.id))?.publishedAt).toEqual(at(-100));
    });

    it('lets exactly one of eight overlapping runs publish an article and record its event', async () => {
      const hook = sampleWebhook({ events: ['article.published'] });
      await db.repos.webhooks.create(hook);
      const articles = [await article(), await article(), await article()];
      for (const a of articles) await db.repos.scheduling.schedule(a.id, at(5), NOW);
      for (const a of articles) {
        const runs = await Promise.all(Array.from({ length: 8 }, () => publication(a.id, at(5), [hook.id])));
        const results = await Promise.all(runs.map((p) => db.repos.scheduling.publishDue(p)));
        expect(results.filter(Boolean)).toHaveLength(1);
        const events = await Promise.all(runs.map((p) => db.repos.webhooks.findEvent(p.event.id)));
        expect(events.filter((e) => e !== null)).toHaveLength(1);
        expect(events.findIndex((e) => e !== null)).toBe(results.indexOf(true));
      }
      expect(await db.repos.webhooks.due(at(10), 50)).toHaveLength(articles.length);
      for (const a of articles) expect((await db.repos.articles.findById(a.id))?.status).toBe('online');
    });
  });
}
