import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner, upload } from '../../../support/api-flows.js';
import type { ApiHarness, ApiTarget, SetupApi } from '../../../support/api-harness.js';
import { PNG_1x1 } from '../../../support/images.js';
import { countRows } from '../../../support/test-database.js';
import { runJobs, subscribe } from '../../../support/webhook-flows.js';

const UNKNOWN = '0190a000-0000-7000-8000-000000000000';

/** Drafts of articles and their revisions (docs/api.md#drafts, #revisions), on every database and on D1. */
export function runArticleDraftsApiContract(name: string, setup: SetupApi, target: ApiTarget) {
  describe(`article drafts and revisions (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    beforeAll(async () => {
      api = await setup({
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        REVISIONS_MAX_COUNT: '3',
        REVISIONS_MAX_BYTES: '2048',
      });
      owner = (await registerOwner(api, 'owner@example.com')).token;
      await subscribe(api, owner, (await target.webhookReceiver()).url, ['article.updated', 'article.published']);
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const path = (id: string, tail = '') => `/v1/articles/${id}${tail}`;
    const put = (id: string, json: unknown, ifMatch?: string) =>
      api.request(path(id, '/draft'), {
        method: 'PUT',
        token: owner,
        json,
        ...(ifMatch !== undefined && { headers: { 'if-match': ifMatch } }),
      });
    const live = async (id: string) => (await (await api.request(path(id), { token: owner })).json()).article;
    const revisions = async (id: string) =>
      (await (await api.request(path(id, '/revisions'), { token: owner })).json()).items;
    async function published(json: Record<string, unknown> = {}) {
      const article = await createArticle(api, owner, { title: 'Live', body: 'The live text.', ...json });
      const res = await api.request(path(article.id, '/publish'), { method: 'POST', token: owner });
      expect(res.status).toBe(200);
      return (await res.json()).article;
    }
    const recorded = async () => ({
      entries: (await api.deps.activityLog.count({})).total,
      events: await countRows(api.database, 'webhook_events'),
    });

    it('keeps a draft apart from the live article: written, read, conditional on its ETag, discarded', async () => {
      const article = await published();
      expect((await api.request(path(article.id, '/draft'), { token: owner })).status).toBe(404);
      const first = await put(article.id, { title: 'Half-written', excerpt: 'Soon', seo: { metaTitle: 'Meta' } });
      expect(first.status).toBe(200);
      expect(first.headers.get('etag')).toBe('"d1"');
      const { draft } = await first.json();
      expect(draft).toMatchObject({
        articleId: article.id,
        title: 'Half-written',
        body: 'The live text.',
        excerpt: 'Soon',
        slug: article.slug,
        seo: { metaTitle: 'Meta', noindex: false },
        version: 1,
        baseVersion: article.version,
      });
      // Nothing of it is live: not for the public, not for the editor's read of the article.
      expect((await (await api.request(path(article.id))).json()).article.title).toBe('Live');
      expect(await live(article.id)).toMatchObject({
        title: 'Live',
        version: article.version,
        excerpt: 'The live text.',
      });
      const read = await api.request(path(article.id, '/draft'), { token: owner });
      expect(read.headers.get('etag')).toBe('"d1"');
      expect((await read.json()).draft).toEqual(draft);
      // Fields left out keep the draft's values.
      const second = await put(article.id, { body: 'More text.' }, '"d1"');
      expect(second.status).toBe(200);
      expect((await second.json()).draft).toMatchObject({ title: 'Half-written', body: 'More text.', version: 2 });
      const stale = await put(article.id, { body: 'From an old tab' }, '"d1"');
      expect(stale.status).toBe(412);
      expect(stale.headers.get('etag')).toBe('"d2"');
      expect(await stale.json()).toMatchObject({
        error: { code: 'conflict' },
        version: 2,
        draft: { body: 'More text.' },
      });
      expect(
        (
          await api.request(path(article.id, '/draft'), {
            method: 'DELETE',
            token: owner,
            headers: { 'if-match': '"d1"' },
          })
        ).status,
      ).toBe(412);
      expect((await api.request(path(article.id, '/draft'), { method: 'DELETE', token: owner })).status).toBe(204);
      expect((await api.request(path(article.id, '/draft'), { token: owner })).status).toBe(404);
      expect((await api.request(path(article.id, '/draft'), { method: 'DELETE', token: owner })).status).toBe(404);
      // No draft: a conditional write names none that exists.
      expect((await put(article.id, { title: 'x' }, '"d2"')).status).toBe(412);
      expect(await live(article.id)).toMatchObject({ title: 'Live', version: article.version });
    });

    it('carries every field the editor shows (site, authors, tags, SEO, slug, excerpt, feature image) to the one write that publishes it', async () => {
      const make = async (url: string, json: unknown) =>
        (await api.request(url, { method: 'POST', token: owner, json })).json();
      const { site } = await make('/v1/sites', { name: 'Draft site', baseUrl: 'https://draft.example' });
      const { author: ada } = await make('/v1/authors', { name: 'Ada', slug: 'draft-ada' });
      const { author: bob } = await make('/v1/authors', { name: 'Bob', slug: 'draft-bob' });
      const { tag: news } = await make('/v1/tags', { name: 'News', slug: 'draft-news' });
      const { tag: sport } = await make('/v1/tags', { name: 'Sport', slug: 'draft-sport' });
      const article = await published({ authorIds: [ada.id], tagIds: [news.id], seo: { metaTitle: 'Live meta' } });
      const { image } = await (await upload(api, owner, article.id, PNG_1x1, 'f.png', 'image/png')).json();
      const fields = {
        siteId: site.id,
        authorIds: [bob.id, ada.id],
        tagIds: [sport.id, news.id],
        seo: { metaDescription: 'Draft description', noindex: true },
        slug: 'draft-slug',
        excerpt: 'Draft excerpt',
        featureImageId: image.id,
      };
      const res = await put(article.id, fields);
      expect(res.status).toBe(200);
      const seo = {
        metaTitle: null,
        metaDescription: 'Draft description',
        canonicalUrl: null,
        ogImage: null,
        noindex: true,
      };
      expect((await res.json()).draft).toMatchObject({ ...fields, seo });
      // The live article keeps all of them until the draft is published.
      const before = await live(article.id);
      expect(before).toMatchObject({ siteId: null, authorIds: [ada.id], seo: { metaTitle: 'Live meta' } });
      expect(before.tags.map((t: { id: string }) => t.id)).toEqual([news.id]);
      const done = await api.request(path(article.id, '/draft/publish'), { method: 'POST', token: owner });
      expect(done.status).toBe(200);
      const { article: now } = await done.json();
      expect(now).toMatchObject({
        siteId: site.id,
        authorIds: [bob.id, ada.id],
        seo,
        slug: 'draft-slug',
        excerpt: 'Draft excerpt',
        featureImageId: image.id,
        version: before.version + 1,
      });
      expect(now.tags.map((t: { id: string }) => t.id)).toEqual([sport.id, news.id]);
      expect(await live(article.id)).toMatchObject({ seo, siteId: site.id, version: now.version });
    });

    it('validates a draft as an edit is validated, and writes nothing then', async () => {
      const article = await published();
      const other = await createArticle(api, owner, { title: 'Other' });
      const { image } = await (await upload(api, owner, other.id, PNG_1x1, 'a.png', 'image/png')).json();
      for (const [json, field] of [
        [{ title: '' }, 'title'],
        [{ body: 'a\u0000b' }, 'body'],
        [{ slug: 'Not A Slug' }, 'slug'],
        [{ seo: { canonicalUrl: 'javascript:alert(1)' } }, 'seo.canonicalUrl'],
        [{ featureImageId: image.id }, 'featureImageId'],
      ] as const) {
        const res = await put(article.id, json);
        expect(res.status, JSON.stringify(json)).toBe(400);
        expect(JSON.stringify((await errorOf(res)).issues)).toContain(field.split('.')[0]);
      }
      expect((await api.request(path(article.id, '/draft'), { token: owner })).status).toBe(404);
      expect((await put(UNKNOWN, { title: 'x' })).status).toBe(404);
      expect((await api.request(path(article.id, '/draft'), { method: 'PUT', json: { title: 'x' } })).status).toBe(401);
    });

    it('publishes the draft in one write: the new version, one activity entry, one article.updated, a revision', async () => {
      const article = await published();
      await put(article.id, { title: 'Updated', body: 'New live text.' });
      const before = { ...(await recorded()), revisions: (await revisions(article.id)).length };
      expect(
        (
          await api.request(path(article.id, '/draft/publish'), {
            method: 'POST',
            token: owner,
            headers: { 'if-match': '"d9"' },
          })
        ).status,
      ).toBe(412);
      expect(await recorded()).toMatchObject({ entries: before.entries, events: before.events });
      const res = await api.request(path(article.id, '/draft/publish'), {
        method: 'POST',
        token: owner,
        headers: { 'if-match': '"d1"' },
      });
      expect(res.status).toBe(200);
      const { article: now } = await res.json();
      expect(res.headers.get('etag')).toBe(`"v${article.version + 1}"`);
      expect(now).toMatchObject({
        title: 'Updated',
        body: 'New live text.',
        status: 'online',
        version: article.version + 1,
      });
      expect((await (await api.request(path(article.id))).json()).article.title).toBe('Updated');
      expect(await recorded()).toEqual({ entries: before.entries + 1, events: before.events + 1 });
      const [type] = await api.database.query('SELECT type FROM webhook_events ORDER BY id DESC LIMIT 1');
      expect(type?.type).toBe('article.updated');
      const [entry] = await api.deps.activityLog.list({ limit: 1 });
      expect(entry).toMatchObject({
        action: 'article.update',
        subjectId: article.id,
        details: { fields: ['draft', 'title', 'body'] },
      });
      expect(await revisions(article.id)).toHaveLength(before.revisions + 1);
      expect((await api.request(path(article.id, '/draft'), { token: owner })).status).toBe(404);
      expect((await api.request(path(article.id, '/draft/publish'), { method: 'POST', token: owner })).status).toBe(
        404,
      );
    });

    it('keeps a bounded list of revisions of online articles, newest first, and restores one as the draft', async () => {
      const offline = await createArticle(api, owner, { title: 'Offline' });
      await api.request(path(offline.id), { method: 'PATCH', token: owner, json: { title: 'Still offline' } });
      expect(await revisions(offline.id)).toEqual([]);
      const article = await published({ title: 'First' });
      for (const title of ['Second', 'Third', 'Fourth']) {
        expect((await api.request(path(article.id), { method: 'PATCH', token: owner, json: { title } })).status).toBe(
          200,
        );
      }
      // REVISIONS_MAX_COUNT is 3 here: the publication's revision went.
      const items = await revisions(article.id);
      expect(items.map((r: { title: string }) => r.title)).toEqual(['Fourth', 'Third', 'Second']);
      expect(items[0]).toMatchObject({ actorType: 'user', version: article.version + 3 });
      expect(items[0]).not.toHaveProperty('body');
      const one = await api.request(path(article.id, `/revisions/${items[2].id}`), { token: owner });
      expect(one.status).toBe(200);
      expect((await one.json()).revision).toMatchObject({ id: items[2].id, title: 'Second', body: 'The live text.' });
      expect((await api.request(path(article.id, `/revisions/${UNKNOWN}`), { token: owner })).status).toBe(404);
      expect((await api.request(path(offline.id, `/revisions/${items[2].id}`), { token: owner })).status).toBe(404);
      const restored = await api.request(path(article.id, `/revisions/${items[2].id}/restore`), {
        method: 'POST',
        token: owner,
      });
      expect(restored.status).toBe(200);
      expect((await restored.json()).draft).toMatchObject({ title: 'Second', excerpt: null });
      expect(await live(article.id)).toMatchObject({ title: 'Fourth', version: article.version + 3 });
      expect((await api.request(path(UNKNOWN, '/revisions'), { token: owner })).status).toBe(404);
      // REVISIONS_MAX_BYTES is 2048 here: of three revisions of about 950 bytes, the newest two fit.
      const long = await published({ title: 'Long', body: 'x'.repeat(700) });
      for (const title of ['Long 2', 'Long 3']) {
        await api.request(path(long.id), { method: 'PATCH', token: owner, json: { title } });
      }
      const kept = await revisions(long.id);
      expect(kept.map((r: { title: string }) => r.title)).toEqual(['Long 3', 'Long 2']);
      expect(kept[0].bytes + kept[1].bytes).toBeLessThanOrEqual(2048);
      expect(kept[0].bytes).toBeGreaterThan(700);
    });

    it('makes a scheduled draft live at its time, once, as the system (a scheduled update)', async () => {
      const article = await published();
      const schedule = (id: string, publishAt: string) =>
        api.request(path(id, '/draft/schedule'), { method: 'POST', token: owner, json: { publishAt } });
      const inMinutes = (n: number) => new Date(api.clock.now().getTime() + n * 60_000).toISOString();
      expect((await schedule(article.id, inMinutes(2))).status).toBe(404);
      await put(article.id, { title: 'Scheduled' });
      expect((await schedule(article.id, inMinutes(-1))).status).toBe(400);
      const at = inMinutes(2);
      const res = await schedule(article.id, at);
      expect(res.status).toBe(200);
      expect((await res.json()).draft).toMatchObject({ title: 'Scheduled', publishAt: at, version: 1 });
      // Writing the draft keeps its schedule.
      expect((await (await put(article.id, { body: 'Later text.' })).json()).draft.publishAt).toBe(at);
      await runJobs(api);
      expect(await live(article.id)).toMatchObject({ title: 'Live', version: article.version });
      api.clock.advance(3 * 60_000);
      const events = await countRows(api.database, 'webhook_events');
      await Promise.all([runJobs(api), runJobs(api)]);
      await runJobs(api);
      expect(await live(article.id)).toMatchObject({
        title: 'Scheduled',
        body: 'Later text.',
        version: article.version + 1,
      });
      expect(await countRows(api.database, 'webhook_events')).toBe(events + 1);
      expect((await revisions(article.id))[0]).toMatchObject({
        title: 'Scheduled',
        actorType: 'system',
        actorId: null,
      });
      expect((await api.request(path(article.id, '/draft'), { token: owner })).status).toBe(404);
      // Cancelled, the draft stays and waits.
      await put(article.id, { title: 'Not yet' });
      expect((await schedule(article.id, inMinutes(5))).status).toBe(200);
      expect((await api.request(path(article.id, '/draft/schedule'), { method: 'DELETE', token: owner })).status).toBe(
        204,
      );
      api.clock.advance(10 * 60_000);
      await runJobs(api);
      expect((await (await api.request(path(article.id, '/draft'), { token: owner })).json()).draft).toMatchObject({
        title: 'Not yet',
        publishAt: null,
      });
      expect((await live(article.id)).title).toBe('Scheduled');
    });

    it('says how long an article takes to read: words / 230, at least one minute for any text', async () => {
      const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
      const cases: [string, number][] = [
        ['', 0],
        ['# One', 1],
        [`# Title\n\n- ${words(460)}\n\n> —`, 2],
        [words(1000), 4],
      ];
      for (const [body, minutes] of cases) {
        const article = await createArticle(api, owner, { body });
        expect(article.readingTimeMinutes, body.slice(0, 20)).toBe(minutes);
      }
    });
  });
}
