import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { originalKey } from '../../../../worker/src/features/media/blob-keys.js';
import { createArticle, registerOwner, upload } from '../../../support/api-flows.js';
import type { ApiHarness, SetupApi } from '../../../support/api-harness.js';
import { JPEG_2x3 } from '../../../support/images.js';

/**
 * Conditional requests for uploaded images and variants (docs/caching.md):
 * answered from the database row, never from the file, and never for an
 * image that is gone.
 */
export function runImageCachingApiContract(name: string, setup: SetupApi) {
  describe(`image validators (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let articleId: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'owner@example.com')).token;
      articleId = (await createArticle(api, owner, { title: 'With images' })).id;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const uploaded = async () => {
      const res = await upload(api, owner, articleId, JPEG_2x3);
      expect(res.status).toBe(201);
      return (await res.json()).image as { id: string; url: string; filename: string };
    };

    it('answers If-None-Match with a 304 without reading the file, originals and variants alike', async () => {
      const image = await uploaded();
      const etags = new Map<string, string>();
      for (const url of [image.url, `${image.url}?w=160`, `${image.url}?w=160&format=webp`]) {
        const full = await api.request(url);
        expect(full.status, url).toBe(200);
        expect(full.headers.get('cache-control'), url).toBe('public, no-cache');
        await full.arrayBuffer();
        const etag = full.headers.get('etag');
        expect(etag, url).toMatch(/^"[^"]+"$/);
        const cond = await api.request(url, { headers: { 'if-none-match': etag! } });
        expect(cond.status, url).toBe(304);
        expect(cond.headers.get('etag')).toBe(etag);
        etags.set(url, etag!);
      }
      // The file itself is gone from storage, the row is not: a validator still answers, which only the row can do.
      await api.deps.blobs.delete(originalKey(image.filename));
      const cond = await api.request(image.url, { headers: { 'if-none-match': etags.get(image.url)! } });
      expect(cond.status).toBe(304);
      expect(await cond.text()).toBe('');
      // Without the validator the file is needed, and missing.
      expect((await api.request(image.url)).status).not.toBe(200);
    });

    it('never answers 304 for a deleted image or its variants: they are 404 at once', async () => {
      const image = await uploaded();
      const tags: [string, string][] = [];
      for (const url of [image.url, `${image.url}?w=320&format=png`]) {
        const res = await api.request(url);
        await res.arrayBuffer();
        tags.push([url, res.headers.get('etag')!]);
      }
      expect((await api.request(`/v1/media/${image.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
      for (const [url, etag] of tags) {
        const res = await api.request(url, { headers: { 'if-none-match': etag } });
        expect(res.status, url).toBe(404);
        expect(res.headers.get('etag')).toBeNull();
      }
    });
  });
}
