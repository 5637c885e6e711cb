import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scheduledJobs } from '../../../../worker/src/app/services.js';
import type { AppDeps } from '../../../../worker/src/feature-api/deps.js';
import { originalKey } from '../../../../worker/src/features/media/blob-keys.js';
import type { PurgeRun } from '../../../../worker/src/features/purge/purge.entities.js';
import { createArticle, errorOf, registerOwner, upload } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';
import { GIF_1x1, JPEG_400x300, PNG_QUADRANTS, WEBP_1x1 } from '../../../support/images.js';

/** The scheduler's purge job alone, as the cron trigger and the Node timer run it. */
const scheduledPurge = (deps: AppDeps) => {
  const jobs = scheduledJobs(deps);
  return async (now: Date) => (await jobs(now)).purge as PurgeRun | null;
};

const HOUR = 60 * 60 * 1000;
const DEFAULTS = {
  enabled: false,
  intervalHours: 24,
  removeDuplicates: true,
  removeOrphans: true,
  orphanGraceHours: 24,
  dryRun: false,
};
const IMAGE_URL = /\/static\/uploadedImages\/[0-9a-f-]+\.(?:jpg|png|webp|gif)(?:\?[A-Za-z0-9=&]*)?/g;

interface Img {
  id: string;
  url: string;
  filename: string;
}

/** Duplicate and orphan purge, its settings and scheduler (docs/api.md#media-library-variants-and-purge). */
export function runPurgeApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`media purge (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let admin: string;

    const purge = async (json: Record<string, unknown> = {}, token = owner) =>
      api.request('/v1/media/purge', { method: 'POST', token, json });
    const putSettings = (json: unknown, token = owner) =>
      api.request('/v1/media/purge/settings', { method: 'PUT', token, json });
    const uploadImage = async (articleId: string, bytes: Uint8Array): Promise<Img> => {
      // Ordered creation times: the oldest of a group is the survivor.
      api.clock.advance(1000);
      const res = await upload(api, owner, articleId, bytes);
      expect(res.status).toBe(201);
      return (await res.json()).image;
    };
    const setBody = async (id: string, body: string, format: string) => {
      const res = await api.request(`/v1/articles/${id}`, { method: 'PATCH', token: owner, json: { body, format } });
      expect(res.status).toBe(200);
    };

    /** Every image an article lists, and every image URL in its body, answers 200. */
    async function expectEverythingRenders(articleIds: string[]) {
      for (const id of articleIds) {
        const article = (await (await api.request(`/v1/articles/${id}`, { token: owner })).json()).article;
        const urls = [
          ...(article.images as Img[]).map((i) => i.url),
          ...((article.body as string).match(IMAGE_URL) ?? []),
        ];
        for (const url of urls) {
          const res = await api.request(url);
          expect(res.status, `${url} in article ${id}`).toBe(200);
          await res.arrayBuffer();
        }
      }
    }

    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'purge-owner@example.com')).token;
      const invited = await api.request('/v1/user/invite', {
        method: 'POST',
        token: owner,
        json: { email: 'purge-admin@example.com', role: 'admin' },
      });
      expect(invited.status).toBe(201);
      const accepted = await api.request('/v1/auth/invitation/accept', {
        method: 'POST',
        json: { code: api.lastCode('/accept-invite'), password: 'a long enough password' },
      });
      admin = (await accepted.json()).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });
    beforeEach(async () => {
      expect((await putSettings(DEFAULTS)).status).toBe(200);
    });

    it('shows the defaults, validates strictly and lets only the owner change them', async () => {
      const res = await api.request('/v1/media/purge/settings', { token: admin });
      expect(res.status).toBe(200);
      expect((await res.json()).settings).toMatchObject({ ...DEFAULTS, nextRunAt: null });
      for (const bad of [
        { ...DEFAULTS, intervalHours: 0 },
        { ...DEFAULTS, intervalHours: 721 },
        { ...DEFAULTS, intervalHours: 1.5 },
        { ...DEFAULTS, intervalHours: '24' },
        { ...DEFAULTS, orphanGraceHours: 0 },
        { ...DEFAULTS, orphanGraceHours: 8761 },
        { ...DEFAULTS, enabled: 'true' },
        { ...DEFAULTS, dryRun: 1 },
        { ...DEFAULTS, extra: true },
        { enabled: true },
      ]) {
        const refused = await putSettings(bad);
        expect(refused.status, JSON.stringify(bad)).toBe(400);
        expect((await errorOf(refused)).code).toBe('invalid_request');
      }
      const edges = {
        enabled: true,
        intervalHours: 720,
        removeDuplicates: false,
        removeOrphans: false,
        orphanGraceHours: 8760,
        dryRun: true,
      };
      expect((await putSettings(edges, admin)).status).toBe(403);
      expect((await purge({ dryRun: true }, admin)).status).toBe(403);
      expect((await api.request('/v1/media/purge/settings', { method: 'PUT', json: edges })).status).toBe(401);
      expect((await api.request('/v1/media/purge', { method: 'POST', json: {} })).status).toBe(401);
      expect((await api.request('/v1/media/purge/settings')).status).toBe(401);
      expect((await api.request('/v1/media/purge/runs')).status).toBe(401);
      const saved = await putSettings(edges);
      expect(saved.status).toBe(200);
      const settings = (await saved.json()).settings;
      expect(settings).toMatchObject(edges);
      // Enabled and never run: due at the next tick.
      expect(Date.parse(settings.nextRunAt)).toBeLessThanOrEqual(api.clock.now().getTime());
      expect((await (await api.request('/v1/media/purge/settings', { token: admin })).json()).settings).toMatchObject(
        edges,
      );
      expect((await purge({ dryRun: 'yes' })).status).toBe(400);
      // A body the server cannot read as JSON is refused, never taken for "no body".
      const asText = await api.request('/v1/media/purge', {
        method: 'POST',
        token: owner,
        body: '{"dryRun":true}',
        headers: { 'content-type': 'text/plain' },
      });
      expect(asText.status).toBe(400);
      const noBody = await api.request('/v1/media/purge', { method: 'POST', token: owner });
      expect(noBody.status).toBe(200);
      expect((await noBody.json()).run).toMatchObject({ dryRun: false, status: 'succeeded', bytesFreed: 0 });
    });

    it('folds duplicates into the oldest copy without breaking any article; the dry run shows exactly what the real run removes', async () => {
      const a = (await createArticle(api, owner, { format: 'markdown' })).id;
      const b = (await createArticle(api, owner, { format: 'html' })).id;
      const c = (await createArticle(api, owner, { format: 'plaintext' })).id;
      const d = (await createArticle(api, owner, { format: 'markdown' })).id;
      const a1 = await uploadImage(a, JPEG_400x300);
      const b1 = await uploadImage(b, JPEG_400x300);
      const c1 = await uploadImage(c, JPEG_400x300);
      const a2 = await uploadImage(a, PNG_QUADRANTS);
      const d2 = await uploadImage(d, PNG_QUADRANTS);
      const d3 = await uploadImage(d, GIF_1x1);
      await setBody(a, `![one](${b1.url}?w=160&format=webp) and ![two](${c1.url}) and ![own](${a2.url})`, 'markdown');
      await setBody(b, `<p><img src="${b1.url}"><img src="${a1.url}?w=320"></p>`, 'html');
      await setBody(c, `See ${c1.url} and ${d2.url}?format=png`, 'plaintext');
      await setBody(d, `![](${d2.url}) ![](${d3.url})`, 'markdown');
      // An og image is a reference too: it must move with the duplicate.
      const seo = { metaTitle: 'Share me', ogImage: c1.url };
      expect((await api.request(`/v1/articles/${d}/seo`, { method: 'PUT', token: owner, json: seo })).status).toBe(200);
      await expectEverythingRenders([a, b, c, d]);

      const dry = await purge({ dryRun: true });
      expect(dry.status).toBe(200);
      const plan = (await dry.json()).run;
      expect(plan).toMatchObject({ trigger: 'manual', dryRun: true, status: 'succeeded', error: null });
      expect(plan.removed.duplicates.map((x: { imageId: string }) => x.imageId).sort()).toEqual(
        [b1.id, c1.id, d2.id].sort(),
      );
      expect(plan.removed.duplicates.find((x: { imageId: string }) => x.imageId === d2.id).survivorId).toBe(a2.id);
      expect(plan.bytesFreed).toBe(2 * JPEG_400x300.byteLength + PNG_QUADRANTS.byteLength);
      // A dry run changes nothing.
      expect((await api.request(b1.url)).status).toBe(200);

      const real = (await (await purge()).json()).run;
      expect(real).toMatchObject({ dryRun: false, status: 'succeeded' });
      expect(real.removed).toEqual(plan.removed);
      expect(real.bytesFreed).toBe(plan.bytesFreed);

      await expectEverythingRenders([a, b, c, d]);
      for (const gone of [b1, c1, d2]) expect((await api.request(gone.url)).status).toBe(404);
      const shown = async (id: string) =>
        ((await (await api.request(`/v1/articles/${id}`, { token: owner })).json()).article.images as Img[])
          .map((i) => i.id)
          .sort();
      expect(await shown(b)).toEqual([a1.id]);
      expect(await shown(c)).toEqual([a1.id]);
      expect(await shown(d)).toEqual([a2.id, d3.id].sort());
      const body = (await (await api.request(`/v1/articles/${c}`, { token: owner })).json()).article.body;
      // Bodies keep our image URLs root-relative, whatever origin they were pasted with.
      const path = (img: Img) => new URL(img.url).pathname;
      expect(body).toBe(`See ${path(a1)} and ${path(a2)}?format=png`);
      const og = (await (await api.request(`/v1/articles/${d}/seo`, { token: owner })).json()).seo;
      expect(og).toEqual({
        metaTitle: 'Share me',
        metaDescription: null,
        canonicalUrl: null,
        ogImage: a1.url,
        noindex: false,
      });
      expect((await api.request(og.ogImage)).status).toBe(200);
      // Both runs are in the activity log, as the owner's.
      const logged = (await (await api.request('/v1/activity?action=media.purge&limit=2', { token: owner })).json())
        .items;
      expect(logged.map((e: { subjectId: string }) => e.subjectId)).toEqual([real.id, plan.id]);
      expect(logged[0]).toMatchObject({
        actorType: 'user',
        subjectType: 'purgeRun',
        details: { trigger: 'manual', dryRun: false, duplicates: 3, bytesFreed: real.bytesFreed },
      });
      // Nothing left to fold: the next dry run is empty.
      expect((await (await purge({ dryRun: true })).json()).run.removed.duplicates).toEqual([]);

      // Deleting the article an image was uploaded for keeps it for the others.
      expect((await api.request(`/v1/articles/${a}`, { method: 'DELETE', token: owner })).status).toBe(204);
      await expectEverythingRenders([b, c, d]);
      expect(await shown(b)).toEqual([a1.id]);

      // Newest first, paged: the empty dry run, the real run, then the first dry run.
      const runs = await (await api.request('/v1/media/purge/runs?limit=2', { token: admin })).json();
      expect(runs.items[1].id).toBe(real.id);
      const page2 = await (
        await api.request(`/v1/media/purge/runs?limit=1&cursor=${runs.nextCursor}`, { token: admin })
      ).json();
      expect(page2.items[0].id).toBe(plan.id);
    });

    it('removes orphan blobs and rows without a blob once older than the grace, never before', async () => {
      expect((await putSettings({ ...DEFAULTS, orphanGraceHours: 1 })).status).toBe(200);
      const article = (await createArticle(api, owner)).id;
      const strayKey = originalKey(`${crypto.randomUUID()}.png`);
      await api.deps.blobs.put(strayKey, PNG_QUADRANTS, 'image/png');
      const lost = await uploadImage(article, WEBP_1x1);
      await api.deps.blobs.delete(originalKey(lost.filename));

      const early = (await (await purge({ dryRun: false })).json()).run;
      expect(early.removed.orphanBlobs).toEqual([]);
      expect(early.removed.rowsWithoutBlob).toEqual([]);
      expect(await api.deps.blobs.head(strayKey)).not.toBeNull();

      api.clock.advance(2 * HOUR);
      const plan = (await (await purge({ dryRun: true })).json()).run;
      expect(plan.removed.orphanBlobs).toEqual([{ key: strayKey, bytes: PNG_QUADRANTS.byteLength }]);
      expect(plan.removed.rowsWithoutBlob).toEqual([{ imageId: lost.id, filename: lost.filename, bytes: 0 }]);
      const real = (await (await purge()).json()).run;
      expect(real.removed).toEqual(plan.removed);
      expect(await api.deps.blobs.head(strayKey)).toBeNull();
      expect((await api.request(`/v1/media/${lost.id}`, { token: owner })).status).toBe(404);
      const images = (await (await api.request(`/v1/articles/${article}`, { token: owner })).json()).article.images;
      expect(images).toEqual([]);
    });

    it('runs on schedule only when enabled and due, honouring the dry-run setting', async () => {
      const tick = scheduledPurge(api.deps);
      expect(await tick(api.clock.now())).toBeNull();
      expect((await putSettings({ ...DEFAULTS, enabled: true, intervalHours: 2, dryRun: true })).status).toBe(200);
      const first = await tick(api.clock.now());
      expect(first).toMatchObject({ trigger: 'scheduled', dryRun: true, status: 'succeeded' });
      const [logged] = (await (await api.request('/v1/activity?action=media.purge&limit=1', { token: owner })).json())
        .items;
      expect(logged).toMatchObject({
        actorType: 'system',
        actorId: null,
        subjectId: first!.id,
        details: { trigger: 'scheduled', dryRun: true },
      });
      expect(await tick(api.clock.now())).toBeNull();
      api.clock.advance(HOUR);
      expect(await tick(api.clock.now())).toBeNull();
      const settings = (await (await api.request('/v1/media/purge/settings', { token: owner })).json()).settings;
      expect(settings.nextRunAt).toBe(new Date(first!.startedAt.getTime() + 2 * HOUR).toISOString());
      expect(settings.lastRunAt).toBe(first!.startedAt.toISOString());
      api.clock.advance(HOUR);
      expect(await tick(api.clock.now())).toMatchObject({ trigger: 'scheduled', dryRun: true });
      const runs = (await (await api.request('/v1/media/purge/runs', { token: owner })).json()).items;
      expect(runs.filter((r: { trigger: string }) => r.trigger === 'scheduled')).toHaveLength(2);
    });

    it('shows a scheduled real purge on the very next anonymous read (no stale cached article)', async () => {
      const first = (await createArticle(api, owner, { format: 'markdown' })).id;
      const second = (await createArticle(api, owner, { format: 'markdown' })).id;
      const original = await uploadImage(first, GIF_1x1);
      const copy = await uploadImage(second, GIF_1x1);
      await setBody(second, `![copy](${copy.url})`, 'markdown');
      expect((await api.request(`/v1/articles/${second}/publish`, { method: 'POST', token: owner })).status).toBe(200);
      expect((await putSettings({ ...DEFAULTS, enabled: true })).status).toBe(200);
      // Read (and, where there is a cache, cached) after the last write request.
      const before = (await (await api.request(`/v1/articles/${second}`)).json()).article;
      expect(before.body).toContain(new URL(copy.url).pathname);
      api.clock.advance(48 * HOUR);
      const run = await scheduledPurge(api.deps)(api.clock.now());
      expect(run).toMatchObject({ trigger: 'scheduled', dryRun: false });
      // Earlier tests left an older copy of these bytes: the oldest survives.
      const folded = run!.removed.duplicates.find((d) => d.imageId === copy.id)!;
      expect(run!.removed.duplicates.find((d) => d.imageId === original.id)?.survivorId ?? original.id).toBe(
        folded.survivorId,
      );
      const after = (await (await api.request(`/v1/articles/${second}`)).json()).article;
      expect(after.body).toBe(`![copy](/static/uploadedImages/${folded.survivorFilename})`);
      expect(after.images.map((i: Img) => i.id)).toEqual([folded.survivorId]);
      expect((await api.request(`/static/uploadedImages/${folded.survivorFilename}`)).status).toBe(200);
    });
  });
}
