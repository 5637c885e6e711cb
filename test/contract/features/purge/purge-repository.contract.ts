import { describe, expect, it } from 'vitest';
import { DEFAULT_PURGE_SETTINGS, type PurgeRun } from '../../../../worker/src/features/purge/purge.entities.js';
import {
  ascendingIds,
  freshRepositories,
  newId,
  type SetupRepositories,
  sampleArticle,
  sampleImage,
} from '../../../support/db-contract.js';

const NOW = new Date('2026-11-26T10:00:00.000Z');
const MINUTE = 60_000;

function sampleRun(overrides: Partial<PurgeRun> = {}): PurgeRun {
  return {
    id: newId(),
    trigger: 'manual',
    dryRun: false,
    startedAt: NOW,
    finishedAt: null,
    status: 'running',
    removed: { duplicates: [], orphanBlobs: [], rowsWithoutBlob: [] },
    bytesFreed: 0,
    error: null,
    ...overrides,
  };
}

/** Image links and duplicate folding, purge settings and runs, leases: the same on D1, SQLite, MariaDB and PostgreSQL. */
export function runPurgeRepositoryContract(name: string, setup: SetupRepositories): void {
  describe(`Purge, links and leases contract: ${name}`, () => {
    const db = freshRepositories(setup);

    async function article(body = 'text'): Promise<string> {
      const input = sampleArticle({ body, format: 'markdown' });
      await db.repos.articles.create(input);
      return input.id;
    }

    it('answers the defaults before any save, then exactly what was saved', async () => {
      expect(await db.repos.purge.getSettings()).toEqual(DEFAULT_PURGE_SETTINGS);
      const saved = {
        enabled: true,
        intervalHours: 720,
        removeDuplicates: false,
        removeOrphans: true,
        orphanGraceHours: 8760,
        dryRun: true,
      };
      await db.repos.purge.saveSettings(saved, NOW);
      expect(await db.repos.purge.getSettings()).toEqual(saved);
      await db.repos.purge.saveSettings({ ...saved, enabled: false, intervalHours: 1 }, NOW);
      expect(await db.repos.purge.getSettings()).toEqual({ ...saved, enabled: false, intervalHours: 1 });
    });

    it('records runs, lists them newest first with keyset pages, and finds the last scheduled one', async () => {
      const ids = ascendingIds(3);
      const runs = ids.map((id, i) =>
        sampleRun({ id, trigger: i === 2 ? 'manual' : 'scheduled', startedAt: new Date(NOW.getTime() + i * MINUTE) }),
      );
      for (const run of runs) await db.repos.purge.startRun(run);
      const finished: PurgeRun = {
        ...runs[1]!,
        status: 'succeeded',
        finishedAt: new Date(NOW.getTime() + 2 * MINUTE),
        removed: {
          duplicates: [
            { imageId: ids[0]!, filename: 'a.png', survivorId: ids[1]!, survivorFilename: 'b.png', bytes: 5 },
          ],
          orphanBlobs: [{ key: 'originals/x.png', bytes: 7 }],
          rowsWithoutBlob: [],
        },
        bytesFreed: 12,
      };
      await db.repos.purge.finishRun(finished);
      const page = await db.repos.purge.listRuns({ limit: 2 });
      expect(page.map((r) => r.id)).toEqual([ids[2], ids[1]]);
      expect(page[1]).toEqual(finished);
      expect((await db.repos.purge.listRuns({ limit: 5, beforeId: ids[1]! })).map((r) => r.id)).toEqual([ids[0]]);
      expect((await db.repos.purge.lastScheduledRun())?.id).toBe(ids[1]);
    });

    it('has no last scheduled run before the first', async () => {
      await db.repos.purge.startRun(sampleRun());
      expect(await db.repos.purge.lastScheduledRun()).toBeNull();
    });

    it('lets exactly one of two concurrent acquirers take a lease, and another take it once expired', async () => {
      const until = new Date(NOW.getTime() + 10 * MINUTE);
      const results = await Promise.all([
        db.repos.leases.acquire('purge', 'a', NOW, until),
        db.repos.leases.acquire('purge', 'b', NOW, until),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results[0] ? 'a' : 'b';
      const loser = results[0] ? 'b' : 'a';
      expect(await db.repos.leases.acquire('purge', loser, new Date(NOW.getTime() + 5 * MINUTE), until)).toBe(false);
      // The holder may renew; another name is another lease.
      expect(await db.repos.leases.acquire('purge', winner, NOW, until)).toBe(true);
      expect(await db.repos.leases.acquire('other', loser, NOW, until)).toBe(true);
      // Expired: the other takes over, and the old holder's release no longer frees it.
      const later = new Date(until.getTime() + 1);
      expect(await db.repos.leases.acquire('purge', loser, later, new Date(later.getTime() + MINUTE))).toBe(true);
      await db.repos.leases.release('purge', winner);
      expect(await db.repos.leases.acquire('purge', winner, later, new Date(later.getTime() + MINUTE))).toBe(false);
      await db.repos.leases.release('purge', loser);
      expect(await db.repos.leases.acquire('purge', winner, later, new Date(later.getTime() + MINUTE))).toBe(true);
    });

    it('names the unexpired holder of a lease, and nobody once it is released or expired', async () => {
      const until = new Date(NOW.getTime() + MINUTE);
      expect(await db.repos.leases.holder('purge', NOW)).toBeNull();
      await db.repos.leases.acquire('purge', 'a', NOW, until);
      expect(await db.repos.leases.holder('purge', NOW)).toBe('a');
      expect(await db.repos.leases.holder('other', NOW)).toBeNull();
      expect(await db.repos.leases.holder('purge', until)).toBeNull();
      await db.repos.leases.release('purge', 'a');
      expect(await db.repos.leases.holder('purge', NOW)).toBeNull();
    });

    it('lets exactly one of ten racers take an expired lease', async () => {
      await db.repos.leases.acquire('purge', 'old', NOW, new Date(NOW.getTime() + MINUTE));
      const later = new Date(NOW.getTime() + 2 * MINUTE);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          db.repos.leases.acquire('purge', `racer-${i}`, later, new Date(later.getTime() + MINUTE)),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('folds a duplicate into its survivor: links and body mentions move, the duplicate row goes', async () => {
      const a = await article();
      const survivor = sampleImage(a, { createdAt: new Date(NOW.getTime() - 2 * MINUTE) });
      await db.repos.images.create(survivor);
      const dupId = newId();
      const dupName = `${dupId}.png`;
      const b = await article(
        `![x](/static/uploadedImages/${dupName}?w=400&format=webp) and <img src="/static/uploadedImages/${dupName}">`,
      );
      const duplicate = sampleImage(b, { id: dupId, filename: dupName });
      await db.repos.images.create(duplicate);
      await db.repos.articles.update(
        b,
        { html: `<p><img src="/static/uploadedImages/${dupName}"></p>`, featureImageId: dupId },
        NOW,
      );
      const c = await article('no images here');
      expect(await db.repos.images.mergeDuplicate(duplicate.id, survivor.id)).toBe(true);
      expect(await db.repos.images.findById(duplicate.id)).toBeNull();
      const shown = await db.repos.images.listForArticles([a, b, c]);
      expect(shown.get(a)!.map((i) => i.id)).toEqual([survivor.id]);
      expect(shown.get(b)!.map((i) => i.id)).toEqual([survivor.id]);
      expect(shown.get(c)).toEqual([]);
      expect((await db.repos.images.listByArticle(b, { limit: 10 })).map((i) => i.id)).toEqual([survivor.id]);
      expect((await db.repos.images.list({ limit: 10, articleId: b })).map((i) => i.id)).toEqual([survivor.id]);
      expect((await db.repos.articles.findById(b))!.body).toBe(
        `![x](/static/uploadedImages/${survivor.filename}?w=400&format=webp) and <img src="/static/uploadedImages/${survivor.filename}">`,
      );
      expect((await db.repos.articles.findById(c))!.body).toBe('no images here');
      // The stored html and the feature image follow the body.
      expect((await db.repos.articles.findById(b))!.html).toBe(
        `<p><img src="/static/uploadedImages/${survivor.filename}"></p>`,
      );
      expect((await db.repos.articles.findById(b))!.featureImageId).toBe(survivor.id);
      // Gone or the same image: nothing to do.
      expect(await db.repos.images.mergeDuplicate(duplicate.id, survivor.id)).toBe(false);
      expect(await db.repos.images.mergeDuplicate(survivor.id, survivor.id)).toBe(false);
    });

    it('folds one duplicate once when several merges race, without a conflict on the links', async () => {
      const articles = await Promise.all([article(), article(), article()]);
      const survivor = sampleImage(articles[0]!, { createdAt: new Date(NOW.getTime() - MINUTE) });
      await db.repos.images.create(survivor);
      const duplicate = sampleImage(articles[1]!);
      await db.repos.images.create(duplicate);
      // The duplicate is also shown by the third article, which does not show the survivor yet.
      const dupOfThird = sampleImage(articles[2]!);
      await db.repos.images.create(dupOfThird);
      await db.repos.images.mergeDuplicate(dupOfThird.id, duplicate.id);
      const results = await Promise.all(
        Array.from({ length: 4 }, () => db.repos.images.mergeDuplicate(duplicate.id, survivor.id)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await db.repos.images.findById(duplicate.id)).toBeNull();
      const shown = await db.repos.images.listForArticles(articles);
      for (const id of articles) expect(shown.get(id)!.map((i) => i.id)).toEqual([survivor.id]);
    });

    it('keeps an image another article links when its article is deleted, and hands its "uploaded for" over', async () => {
      const a = await article();
      const b = await article();
      const shared = sampleImage(a, { createdAt: new Date(NOW.getTime() - MINUTE) });
      const own = sampleImage(a);
      await db.repos.images.create(shared);
      await db.repos.images.create(own);
      const dup = sampleImage(b);
      await db.repos.images.create(dup);
      await db.repos.images.mergeDuplicate(dup.id, shared.id);
      const removed = await db.repos.articles.delete(a);
      expect(removed?.map((i) => i.id)).toEqual([own.id]);
      expect(await db.repos.images.findById(own.id)).toBeNull();
      expect(await db.repos.images.findById(shared.id)).toEqual({ ...shared, articleId: b });
      expect((await db.repos.images.listForArticles([b])).get(b)!.map((i) => i.id)).toEqual([shared.id]);
      // The last article showing it takes it along.
      expect((await db.repos.articles.delete(b))?.map((i) => i.id)).toEqual([shared.id]);
      expect(await db.repos.images.findById(shared.id)).toBeNull();
    });
  });
}
