import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner, upload } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';
import { PNG_1x1 } from '../../../support/images.js';

interface Entry {
  id: string;
  at: string;
  actorId: string | null;
  actorType: string;
  action: string;
  subjectType: string | null;
  subjectId: string | null;
  ip: string | null;
  details: Record<string, unknown> | null;
}

const PEER = '198.51.100.23';

/** The activity log per docs/api.md: producers, filters, paging, summary, exports. */
export function runActivityApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`activity log API (${name})`, () => {
    let api: ApiHarness;
    let owner: { token: string; id: string };
    let articleId: string;
    const entries = async (query = '') => {
      const res = await api.request(`/v1/activity${query}`, { token: owner.token });
      expect(res.status).toBe(200);
      return (await res.json()) as { items: Entry[]; nextCursor: string | null };
    };

    beforeAll(async () => {
      api = await setup();
      owner = await registerOwner(api, 'log-owner@example.com');
      const failed = await api.request('/v1/auth/login', {
        method: 'POST',
        json: { email: 'log-owner@example.com', password: 'wrong password 123' },
        headers: { 'x-test-peer': PEER },
      });
      expect(failed.status).toBe(401);
      const login = await api.request('/v1/auth/login', {
        method: 'POST',
        json: { email: 'log-owner@example.com', password: 'a long enough password' },
        headers: { 'x-test-peer': PEER },
      });
      expect(login.status).toBe(200);
      api.clock.advance(1000);
      articleId = (
        await createArticle(api, owner.token, { title: '=HYPERLINK("http://evil.example","click"), "quoted"' })
      ).id;
      expect(
        (await api.request(`/v1/articles/${articleId}/publish`, { method: 'POST', token: owner.token })).status,
      ).toBe(200);
      expect((await upload(api, owner.token, articleId, PNG_1x1, 'pixel.png', 'image/png')).status).toBe(201);
      expect((await api.request(`/v1/articles/${articleId}`, { method: 'DELETE', token: owner.token })).status).toBe(
        204,
      );
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('records every change of state, newest first, with who, what, which subject, from where and when', async () => {
      const { items } = await entries('?limit=100');
      expect(items.map((e) => e.action)).toEqual([
        'article.delete',
        'image.upload',
        'article.publish',
        'article.create',
        'auth.login',
        'auth.login.failed',
        'user.verify',
        'user.register',
      ]);
      const byAction = Object.fromEntries(items.map((e) => [e.action, e]));
      expect(byAction['article.publish']).toMatchObject({
        actorType: 'user',
        actorId: owner.id,
        subjectType: 'article',
        subjectId: articleId,
      });
      expect(byAction['auth.login']).toMatchObject({ actorType: 'user', actorId: owner.id, ip: PEER });
      // A failed login names the address tried, not an account.
      expect(byAction['auth.login.failed']).toMatchObject({
        actorType: 'user',
        actorId: null,
        ip: PEER,
        details: { email: 'log-owner@example.com' },
      });
      expect(byAction['image.upload']?.details).toMatchObject({ articleId, bytes: PNG_1x1.byteLength });
      for (const e of items) {
        expect(Object.keys(e).sort()).toEqual([
          'action',
          'actorId',
          'actorType',
          'at',
          'details',
          'id',
          'ip',
          'subjectId',
          'subjectType',
        ]);
        expect(new Date(e.at).toISOString()).toBe(e.at);
      }
    });

    it('filters by action, actor and time, and pages with a cursor', async () => {
      expect((await entries('?action=auth.login')).items.map((e) => e.action)).toEqual(['auth.login']);
      const mine = (await entries(`?actorId=${owner.id}&limit=100`)).items;
      expect(mine.length).toBe(7);
      expect(mine.every((e) => e.actorId === owner.id)).toBe(true);
      const all = (await entries('?limit=100')).items;
      const created = all.find((e) => e.action === 'article.create')!;
      const since = (await entries(`?from=${encodeURIComponent(created.at)}&limit=100`)).items;
      expect(since.map((e) => e.action)).toEqual([
        'article.delete',
        'image.upload',
        'article.publish',
        'article.create',
      ]);
      expect((await entries(`?to=${encodeURIComponent(created.at)}&limit=100`)).items).toHaveLength(4);
      const first = await entries('?limit=3');
      expect(first.items).toHaveLength(3);
      const second = await entries(`?limit=3&cursor=${first.nextCursor}`);
      expect(second.items.map((e) => e.id)).toEqual(all.slice(3, 6).map((e) => e.id));
    });

    it('refuses malformed filters with the contract error', async () => {
      for (const query of [
        '?action=DROP%20TABLE',
        '?actorId=nope',
        '?from=yesterday',
        '?from=2026-11-26T00:00:00Z&to=2026-11-25T00:00:00Z',
        '?limit=0',
        '?cursor=%25%25',
      ]) {
        const res = await api.request(`/v1/activity${query}`, { token: owner.token });
        expect(res.status, query).toBe(400);
        expect((await errorOf(res)).code).toBe('invalid_request');
      }
      for (const path of ['/v1/activity', '/v1/activity/summary', '/v1/activity/export']) {
        expect((await api.request(path)).status).toBe(401);
      }
    });

    it('summarises counts by action, actor and day, with the size and its bound', async () => {
      const res = await api.request('/v1/activity/summary', { token: owner.token });
      expect(res.status).toBe(200);
      const summary = await res.json();
      expect(summary.total).toBe(8);
      expect(summary.byAction).toContainEqual({ action: 'auth.login.failed', count: 1 });
      expect(summary.byActor).toContainEqual({ actorType: 'user', actorId: owner.id, count: 7 });
      expect(summary.byActor).toContainEqual({ actorType: 'user', actorId: null, count: 1 });
      expect(summary.byDay.reduce((n: number, d: { count: number }) => n + d.count, 0)).toBe(8);
      expect(summary.sizeBytes).toBeGreaterThan(500);
      expect(summary.maxBytes).toBe(api.deps.settings.activityLogMaxBytes);
      const none = await (
        await api.request('/v1/activity/summary?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z', {
          token: owner.token,
        })
      ).json();
      expect(none).toMatchObject({ total: 0, byAction: [], byActor: [], byDay: [] });
    });

    it('exports the same entries as NDJSON and as CSV downloads, formulas defused', async () => {
      const listed = (await entries('?limit=100')).items;
      const ndjson = await api.request('/v1/activity/export?format=ndjson', { token: owner.token });
      expect(ndjson.status).toBe(200);
      expect(ndjson.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      expect(ndjson.headers.get('content-disposition')).toMatch(
        /^attachment; filename="activity-\d{4}-\d{2}-\d{2}\.ndjson"$/,
      );
      expect(ndjson.headers.get('x-content-type-options')).toBe('nosniff');
      const lines = (await ndjson.text())
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toEqual(listed);

      const csv = await api.request('/v1/activity/export?format=csv&action=article.create', { token: owner.token });
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      const rows = (await csv.text()).split('\r\n');
      expect(rows[0]).toBe('id,at,actorType,actorId,action,subjectType,subjectId,ip,details');
      expect(rows).toHaveLength(3);
      // The title starts with '=': inside the JSON details column it is quoted, never a formula.
      expect(rows[1]).toContain(
        '"{""title"":""=HYPERLINK(\\""http://evil.example\\"",\\""click\\""), \\""quoted\\""""}"',
      );
      expect(rows[1]!.startsWith(listed.find((e) => e.action === 'article.create')!.id)).toBe(true);
      expect(rows[2]).toBe('');

      const bad = await api.request('/v1/activity/export?format=xml', { token: owner.token });
      expect(bad.status).toBe(400);
    });
  });
}
