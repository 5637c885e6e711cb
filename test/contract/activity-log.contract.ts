import { afterEach, describe, expect, it } from 'vitest';
import { type ActivityEntry, type ActivityLogStore, entryLine } from '../../worker/src/ports/activity-log.js';
import { ascendingIds, domainError, HOSTILE_STRINGS, newId } from '../support/db-contract.js';

export type SetupActivityLog = (maxBytes: number) => Promise<{ store: ActivityLogStore; cleanup(): Promise<void> }>;

const DAY1 = new Date('2026-11-24T23:59:59.999Z');
const DAY2 = new Date('2026-11-25T08:00:00.000Z');
const DAY3 = new Date('2026-11-26T12:30:00.000Z');
const USER_A = '0193a000-0000-7000-8000-00000000000a';
const USER_B = '0193a000-0000-7000-8000-00000000000b';

export function sampleEntry(overrides: Partial<ActivityEntry> = {}): ActivityEntry {
  return {
    id: newId(),
    at: DAY2,
    actorType: 'user',
    actorId: USER_A,
    action: 'article.create',
    subjectType: 'article',
    subjectId: newId(),
    ip: '203.0.113.7',
    details: { title: 'Hello' },
    ...overrides,
  };
}

const lineBytes = (entry: ActivityEntry) => new TextEncoder().encode(entryLine(entry)).byteLength;

/** ActivityLogStore: the NDJSON file (Node) and the table (D1, and the three Node databases). */
export function runActivityLogContract(name: string, setup: SetupActivityLog): void {
  describe(`ActivityLogStore contract: ${name}`, () => {
    let cleanup: (() => Promise<void>) | undefined;
    const open = async (maxBytes = 1_000_000) => {
      const made = await setup(maxBytes);
      cleanup = made.cleanup;
      return made.store;
    };
    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    it('starts empty, then lists entries newest first with every field intact', async () => {
      const store = await open();
      expect(await store.size()).toBe(0);
      expect(await store.list({ limit: 10 })).toEqual([]);
      const [a, b, c] = ascendingIds(3);
      const entries = [
        sampleEntry({ id: a!, at: DAY1 }),
        sampleEntry({
          id: b!,
          at: DAY2,
          actorType: 'system',
          actorId: null,
          ip: null,
          details: null,
          subjectType: null,
          subjectId: null,
          action: 'media.purge',
        }),
        sampleEntry({
          id: c!,
          at: DAY3,
          actorType: 'apiKey',
          actorId: USER_B,
          details: { nested: { list: [1, 'two', null] }, hostile: HOSTILE_STRINGS },
        }),
      ];
      for (const e of entries) await store.append(e);
      expect(await store.list({ limit: 10 })).toEqual([...entries].reverse());
      expect(await store.size()).toBe(entries.reduce((n, e) => n + lineBytes(e), 0));
    });

    it('filters by action, actor and time range, and pages by id', async () => {
      const store = await open();
      const ids = ascendingIds(6);
      const entries = [
        sampleEntry({ id: ids[0]!, at: DAY1, action: 'auth.login' }),
        sampleEntry({ id: ids[1]!, at: DAY2, action: 'article.publish' }),
        sampleEntry({ id: ids[2]!, at: DAY2, action: 'article.publish', actorId: USER_B }),
        sampleEntry({ id: ids[3]!, at: DAY3, action: 'article.publish' }),
        sampleEntry({ id: ids[4]!, at: DAY3, action: 'auth.login', actorId: USER_B }),
        sampleEntry({ id: ids[5]!, at: DAY3, action: 'article.publish' }),
      ];
      for (const e of entries) await store.append(e);
      const idsOf = (list: ActivityEntry[]) => list.map((e) => e.id);
      expect(idsOf(await store.list({ limit: 10, action: 'article.publish' }))).toEqual([
        ids[5],
        ids[3],
        ids[2],
        ids[1],
      ]);
      expect(idsOf(await store.list({ limit: 10, actorId: USER_B }))).toEqual([ids[4], ids[2]]);
      expect(idsOf(await store.list({ limit: 10, from: DAY2, to: DAY3 }))).toEqual([ids[2], ids[1]]);
      expect(idsOf(await store.list({ limit: 10, from: DAY3 }))).toEqual([ids[5], ids[4], ids[3]]);
      const first = await store.list({ limit: 2, action: 'article.publish' });
      const second = await store.list({ limit: 2, action: 'article.publish', beforeId: first[1]!.id });
      expect(idsOf(second)).toEqual([ids[2], ids[1]]);
      expect(await store.list({ limit: 2, action: 'article.publish', beforeId: ids[1]! })).toEqual([]);
      expect(await store.list({ limit: 10, action: "'; DROP TABLE activity_log; --" })).toEqual([]);
    });

    it('scans every matching entry newest first, a bounded batch at a time', async () => {
      const store = await open();
      const ids = ascendingIds(23);
      for (const [i, id] of ids.entries())
        await store.append(sampleEntry({ id, action: i % 2 === 0 ? 'auth.login' : 'article.create' }));
      const batches: string[][] = [];
      for await (const batch of store.scan({ action: 'auth.login' }, 5)) batches.push(batch.map((e) => e.id));
      expect(batches.map((b) => b.length)).toEqual([5, 5, 2]);
      expect(batches.flat()).toEqual(ids.filter((_, i) => i % 2 === 0).reverse());
      const none: unknown[] = [];
      for await (const batch of store.scan({ action: 'nothing.here' }, 5)) none.push(batch);
      expect(none).toEqual([]);
    });

    it('counts by action, by actor and by UTC day over a range', async () => {
      const store = await open();
      await store.append(sampleEntry({ at: DAY1, action: 'auth.login' }));
      await store.append(sampleEntry({ at: DAY2, action: 'auth.login', actorId: null }));
      await store.append(sampleEntry({ at: DAY2, action: 'article.create', actorType: 'apiKey', actorId: USER_B }));
      await store.append(sampleEntry({ at: DAY3, action: 'media.purge', actorType: 'system', actorId: null }));
      expect(await store.count({})).toEqual({
        byAction: { 'auth.login': 2, 'article.create': 1, 'media.purge': 1 },
        byActor: { [`user:${USER_A}`]: 1, 'user:anonymous': 1, [`apiKey:${USER_B}`]: 1, system: 1 },
        byDay: { '2026-11-24': 1, '2026-11-25': 2, '2026-11-26': 1 },
        total: 4,
      });
      const ranged = await store.count({ from: DAY2, to: DAY3 });
      expect(ranged.total).toBe(2);
      expect(ranged.byDay).toEqual({ '2026-11-25': 2 });
      expect((await store.count({ action: 'auth.login' })).byAction).toEqual({ 'auth.login': 2 });
    });

    it('never grows past its size bound: the oldest entries go first', async () => {
      const maxBytes = 4000;
      const store = await open(maxBytes);
      const ids = ascendingIds(60);
      const entries = ids.map((id, i) => sampleEntry({ id, details: { n: i, pad: 'x'.repeat(40) } }));
      for (const e of entries) {
        await store.append(e);
        expect(await store.size()).toBeLessThanOrEqual(maxBytes);
      }
      const kept = await store.list({ limit: 100 });
      // Written past the bound many times over, the newest survive and the oldest are gone.
      expect(entries.reduce((n, e) => n + lineBytes(e), 0)).toBeGreaterThan(maxBytes * 3);
      expect(kept.length).toBeGreaterThan(10);
      expect(kept.length).toBeLessThan(entries.length);
      expect(kept.map((e) => e.id)).toEqual(
        entries
          .slice(-kept.length)
          .map((e) => e.id)
          .reverse(),
      );
      expect(await store.size()).toBe(kept.reduce((n, e) => n + lineBytes(e), 0));
    });

    it('refuses an entry larger than the whole log as too large, keeping what it has', async () => {
      const store = await open(2000);
      const kept = sampleEntry();
      await store.append(kept);
      await expect(store.append(sampleEntry({ details: { big: 'y'.repeat(3000) } }))).rejects.toMatchObject(
        domainError('payload_too_large'),
      );
      expect((await store.list({ limit: 10 })).map((e) => e.id)).toEqual([kept.id]);
    });

    it('keeps every entry of concurrent appends', async () => {
      const store = await open();
      const entries = ascendingIds(20).map((id) => sampleEntry({ id }));
      await Promise.all(entries.map((e) => store.append(e)));
      const listed = await store.list({ limit: 100 });
      expect(new Set(listed.map((e) => e.id))).toEqual(new Set(entries.map((e) => e.id)));
      expect(await store.size()).toBe(entries.reduce((n, e) => n + lineBytes(e), 0));
    });
  });
}
