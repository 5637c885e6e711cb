import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner } from '../../../support/api-flows.js';
import type { ApiHarness, SetupApi } from '../../../support/api-harness.js';
import { countRows, failInserts } from '../../../support/test-database.js';

const MINUTE = 60_000;

/**
 * Idempotency-Key on `POST /v1/articles` (docs/api.md#idempotency-key): a
 * retry with the key replays the first answer and creates nothing more.
 */
export function runIdempotencyApiContract(name: string, setup: SetupApi) {
  describe(`Idempotency-Key on creates (${name})`, () => {
    let api: ApiHarness;
    let owner: { token: string; id: string };
    let key = 0;
    beforeAll(async () => {
      api = await setup();
      owner = await registerOwner(api, 'owner@example.com');
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const nextKey = () => `key-${++key}-${crypto.randomUUID()}`;
    const create = (idempotencyKey: string, json: Record<string, unknown>, token = owner.token) =>
      api.request('/v1/articles', { method: 'POST', token, json, headers: { 'Idempotency-Key': idempotencyKey } });
    const articles = () => countRows(api.database, 'articles');

    it('replays the first answer for the same key and body, and creates once', async () => {
      const k = nextKey();
      const before = await articles();
      const first = await create(k, { title: 'Once' });
      expect(first.status).toBe(201);
      const body = await first.text();
      const entries = (await api.deps.activityLog.count({})).total;
      for (let i = 0; i < 3; i++) {
        const again = await create(k, { title: 'Once' });
        expect(again.status).toBe(201);
        expect(await again.text()).toBe(body);
        expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
        expect(again.headers.get('content-type')).toMatch(/^application\/json/);
      }
      expect(await articles()).toBe(before + 1);
      expect((await api.deps.activityLog.count({})).total).toBe(entries);
    });

    it('refuses the key with another body (422), and a malformed key (400)', async () => {
      const k = nextKey();
      expect((await create(k, { title: 'First' })).status).toBe(201);
      const before = await articles();
      const other = await create(k, { title: 'Second' });
      expect(other.status).toBe(422);
      expect((await errorOf(other)).code).toBe('key_reused');
      for (const bad of ['', 'has space', 'x'.repeat(256), 'ünïcode']) {
        const res = await create(bad, { title: 'Bad key' });
        expect(res.status).toBe(400);
      }
      expect(await articles()).toBe(before);
    });

    it('answers 409 while a request with the key is in progress, and frees a key whose request died', async () => {
      const k = nextKey();
      const json = { title: 'In flight' };
      // The state a first request leaves while it runs: its claim, without an answer yet.
      const text = `POST /v1/articles\n${JSON.stringify(json)}`;
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
      const fingerprint = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
      const now = api.clock.now();
      const claimed = await api.deps.repos.idempotencyKeys.claim(
        `user:${owner.id}`,
        k,
        fingerprint,
        now,
        new Date(now.getTime() + 24 * 60 * MINUTE),
        new Date(now.getTime() - MINUTE),
      );
      expect(claimed).toBeNull();
      const before = await articles();
      const busy = await create(k, json);
      expect(busy.status).toBe(409);
      expect((await errorOf(busy)).code).toBe('conflict');
      expect(await articles()).toBe(before);
      // A claim that never got its answer (its process died) is given up after a minute.
      api.clock.advance(2 * MINUTE);
      expect((await create(k, json)).status).toBe(201);
      expect(await articles()).toBe(before + 1);
    });

    it('keeps keys per caller and for 24 hours', async () => {
      const k = nextKey();
      const keyRes = await api.request('/v1/api-keys', {
        method: 'POST',
        token: owner.token,
        json: { name: 'writer', scopes: ['content:read', 'content:write'] },
      });
      const writer = (await keyRes.json()).secret as string;
      const mine = await (await create(k, { title: 'Mine' })).json();
      const theirs = await create(k, { title: 'Theirs' }, writer);
      expect(theirs.status).toBe(201);
      expect((await theirs.json()).article.id).not.toBe(mine.article.id);
      api.clock.advance(24 * 60 * MINUTE + MINUTE);
      const later = await create(k, { title: 'Mine' });
      expect(later.status).toBe(201);
      expect((await later.json()).article.id).not.toBe(mine.article.id);
    });

    it('keeps no answer for a create that failed: the key is free for the corrected request', async () => {
      const taken = await createArticle(api, owner.token, { title: 'Taken', slug: 'taken-slug' });
      const k = nextKey();
      const clash = await create(k, { title: 'Clash', slug: taken.slug });
      expect(clash.status).toBe(409);
      expect((await create(k, { title: 'Clash', slug: 'free-slug' })).status).toBe(201);
    });

    it('keeps the answer in the create’s transaction: when it cannot be kept, nothing is created', async () => {
      const k = nextKey();
      const before = await articles();
      const restore = await failInserts(api.database, 'idempotency_keys', 'UPDATE');
      try {
        expect((await create(k, { title: 'Not kept' })).status).toBe(500);
      } finally {
        await restore();
      }
      expect(await articles()).toBe(before);
      // The failed request let its key go: the retry creates it, once.
      const retry = await create(k, { title: 'Not kept' });
      expect(retry.status).toBe(201);
      expect((await create(k, { title: 'Not kept' })).status).toBe(201);
      expect(await articles()).toBe(before + 1);
    });
  });
}
