import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../worker/src/core/shared/crypto.js';
import { createArticle, errorOf, registerOwner, upload } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';
import { GIF_1x1, PNG_1x1 } from '../../../support/images.js';

/**
 * Reusing the library's images instead of uploading the same bytes again
 * (docs/api.md#media-library-variants-and-purge): `GET /v1/media?sha256=`
 * finds them, `PUT /v1/articles/{id}/images/{imageId}` shows one in
 * another article, which may then take it as its feature image.
 */
export function runImageReuseApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`reusing library images (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'reuse@example.com')).token;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const uploaded = async (articleId: string, bytes: Uint8Array, type: string) => {
      const res = await upload(api, owner, articleId, bytes, 'x.bin', type);
      expect(res.status).toBe(201);
      return (await res.json()).image as { id: string; filename: string; sha256: string };
    };
    const ids = async (path: string) =>
      ((await (await api.request(path, { token: owner })).json()).items as { id: string }[]).map((i) => i.id);
    const link = (articleId: string, imageId: string, token: string | null = owner) =>
      api.request(`/v1/articles/${articleId}/images/${imageId}`, { method: 'PUT', token: token ?? undefined });

    it('finds the images with exactly these bytes by their SHA-256, and refuses a malformed hash', async () => {
      const article = await createArticle(api, owner);
      const png = await uploaded(article.id, PNG_1x1, 'image/png');
      await uploaded(article.id, GIF_1x1, 'image/gif');
      expect(png.sha256).toBe(await sha256Hex(PNG_1x1));

      expect(await ids(`/v1/media?sha256=${png.sha256}`)).toEqual([png.id]);
      expect(await ids(`/v1/media?sha256=${'0'.repeat(64)}`)).toEqual([]);
      for (const bad of ['abc', 'A'.repeat(64), `${png.sha256}0`]) {
        const res = await api.request(`/v1/media?sha256=${bad}`, { token: owner });
        expect(res.status).toBe(400);
        expect((await errorOf(res)).code).toBe('invalid_request');
      }
    });

    it('shows a library image in another article, idempotently, which may then be its feature image', async () => {
      const first = await createArticle(api, owner, { title: 'First' });
      const second = await createArticle(api, owner, { title: 'Second' });
      const image = await uploaded(first.id, GIF_1x1, 'image/gif');
      const feature = (id: string) =>
        api.request(`/v1/articles/${second.id}`, { method: 'PATCH', token: owner, json: { featureImageId: id } });
      expect((await feature(image.id)).status).toBe(400);

      for (let i = 0; i < 2; i++) {
        const res = await link(second.id, image.id);
        expect(res.status).toBe(200);
        expect((await res.json()).image).toMatchObject({ id: image.id, filename: image.filename });
      }
      expect(await ids(`/v1/articles/${second.id}/images`)).toEqual([image.id]);
      expect(await ids(`/v1/articles/${first.id}/images`)).toEqual([image.id]);
      const featured = await feature(image.id);
      expect(featured.status).toBe(200);
      expect((await featured.json()).article.featureImageId).toBe(image.id);

      // Deleting the article it was uploaded for keeps it for the one that links it.
      expect((await api.request(`/v1/articles/${first.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
      expect(await ids(`/v1/articles/${second.id}/images`)).toEqual([image.id]);
    });

    it('is 404 for an unknown article or image, and needs a signed-in uploader', async () => {
      const article = await createArticle(api, owner);
      const image = await uploaded(article.id, PNG_1x1, 'image/png');
      const unknown = '0190a000-0000-7000-8000-000000000000';
      for (const res of [await link(unknown, image.id), await link(article.id, unknown)]) {
        expect(res.status).toBe(404);
        expect((await errorOf(res)).code).toBe('not_found');
      }
      expect((await link(article.id, image.id, null)).status).toBe(401);
    });
  });
}
