import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, errorOf, registerOwner, upload } from '../../../support/api-flows.js';
import { type ApiHarness, type ApiTarget, PUBLIC_URL, type SetupApi } from '../../../support/api-harness.js';
import {
  GIF_1x1,
  HTML,
  JPEG_2x3,
  JPEG_400x300,
  PNG_1x1,
  pngBomb,
  pngWithScript,
  SVG,
  WEBP_1x1,
  ZIP,
} from '../../../support/images.js';

/** Uploading and serving article images, per docs/api.md and docs/security.md#uploads-and-serving. */
export function runImagesApiContract(name: string, setup: SetupApi, { maxUploadBytes }: ApiTarget) {
  describe(`images API (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let articleId: string;
    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'images@example.com')).token;
      articleId = (await createArticle(api, owner)).id;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it.each([
      ['JPEG', JPEG_2x3, 'image/jpeg', 'jpg', 2, 3],
      ['PNG', PNG_1x1, 'image/png', 'png', 1, 1],
      ['GIF', GIF_1x1, 'image/gif', 'gif', 1, 1],
      ['WebP', WEBP_1x1, 'image/webp', 'webp', 1, 1],
    ])(
      'stores a %s, typed from its bytes, and serves it with ETag and no-cache',
      async (_, bytes, contentType, ext, width, height) => {
        // Declared name and type lie on purpose: neither is trusted.
        const res = await upload(api, owner, articleId, bytes, '../../etc/passwd.svg', 'text/html');
        expect(res.status).toBe(201);
        const { image } = await res.json();
        expect(image).toMatchObject({ articleId, contentType, bytes: bytes.length, width, height });
        expect(image.filename).toMatch(new RegExp(`^[0-9a-f-]{36}\\.${ext}$`));
        expect(image.url).toBe(`${PUBLIC_URL}/static/uploadedImages/${image.filename}`);
        expect(image.sha256).toMatch(/^[0-9a-f]{64}$/);

        const served = await api.request(image.url);
        expect(served.status).toBe(200);
        expect(served.headers.get('content-type')).toBe(contentType);
        expect(served.headers.get('cache-control')).toBe('public, no-cache');
        expect(served.headers.get('x-content-type-options')).toBe('nosniff');
        expect(served.headers.get('content-security-policy')).toContain("default-src 'self'");
        const etag = served.headers.get('etag');
        expect(etag).toBe(`"${image.sha256}"`);
        expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);

        const revalidated = await api.request(image.url, { headers: { 'if-none-match': etag! } });
        expect(revalidated.status).toBe(304);
        const head = await api.request(image.url, { method: 'HEAD' });
        expect(head.status).toBe(200);
        expect(head.headers.get('etag')).toBe(etag);
        expect(await head.text()).toBe('');
      },
    );

    it('lists an article’s images with the article’s visibility', async () => {
      const page = await (await api.request(`/v1/articles/${articleId}/images?limit=2`, { token: owner })).json();
      expect(page.items).toHaveLength(2);
      expect(page.nextCursor).toEqual(expect.any(String));
      expect((await api.request(`/v1/articles/${articleId}/images`)).status).toBe(404);
      const article = (await (await api.request(`/v1/articles/${articleId}`, { token: owner })).json()).article;
      expect(article.images).toHaveLength(4);
    });

    it.each([
      ['SVG', SVG],
      ['HTML', HTML],
      ['ZIP', ZIP],
      ['an empty file', new Uint8Array()],
      ['a truncated PNG', PNG_1x1.slice(0, 20)],
      ['a 64000×64000 pixel flood', pngBomb()],
    ])('refuses %s with 400', async (_, bytes) => {
      const res = await upload(api, owner, articleId, bytes, 'x.png', 'image/png');
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('invalid_request');
    });

    it('serves an image with a script appended as nothing but its image type', async () => {
      const res = await upload(api, owner, articleId, pngWithScript(), 'x.html', 'text/html');
      expect(res.status).toBe(201);
      const served = await api.request((await res.json()).image.url);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('refuses uploads over the limit with 413, also without a usable Content-Length', async () => {
      const big = new Uint8Array(maxUploadBytes + 1);
      big.set(PNG_1x1);
      const res = await upload(api, owner, articleId, big);
      expect(res.status).toBe(413);
      expect((await errorOf(res)).code).toBe('payload_too_large');

      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let sent = 0; sent <= maxUploadBytes * 2; sent += 65_536) controller.enqueue(new Uint8Array(65_536));
          controller.close();
        },
      });
      const chunked = await api.request(`/v1/articles/${articleId}/images`, {
        method: 'POST',
        token: owner,
        body: stream,
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      });
      expect(chunked.status).toBe(413);
    });

    it('answers 404 for an unknown article, 401 without a session, 400 without a file', async () => {
      expect((await upload(api, owner, '0190a000-0000-7000-8000-000000000000', PNG_1x1)).status).toBe(404);
      expect((await upload(api, '', articleId, PNG_1x1)).status).toBe(401);
      const form = new FormData();
      form.set('notfile', 'x');
      const res = await api.request(`/v1/articles/${articleId}/images`, { method: 'POST', token: owner, body: form });
      expect(res.status).toBe(400);
      const json = await api.request(`/v1/articles/${articleId}/images`, {
        method: 'POST',
        token: owner,
        json: { file: 'x' },
      });
      expect(json.status).toBe(400);
    });

    it('answers path tricks with 404', async () => {
      for (const path of [
        '/static/uploadedImages/..%2f..%2fpackage.json',
        '/static/uploadedImages/%2e%2e/%2e%2e/package.json',
        '/static/uploadedImages/..%5c..%5cpackage.json',
        '/static/uploadedImages/%252e%252e%252fpackage.json',
        '/static/uploadedImages/',
        '/static/uploadedImages/0190a000-0000-7000-8000-000000000000.png',
        '/static/uploadedImages/0190a000-0000-7000-8000-000000000000.png%00.svg',
        '/static/package.json',
      ]) {
        const res = await api.request(path);
        expect(res.status, path).toBe(404);
      }
    });

    it('deleting the article deletes its images: 404 at once', async () => {
      const other = await createArticle(api, owner, { title: 'Doomed' });
      const { image } = await (await upload(api, owner, other.id, PNG_1x1)).json();
      expect((await api.request(image.url)).status).toBe(200);
      expect((await api.request(`/v1/articles/${other.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
      expect((await api.request(image.url)).status).toBe(404);
      expect((await api.request(image.url, { headers: { 'if-none-match': `"${image.sha256}"` } })).status).toBe(404);
    });
  });

  describe(`IMAGE_VARIANTS=off (${name})`, () => {
    it('lists no variant URL, refuses every variant with a 400 naming the setting, and serves the original', async () => {
      const api = await setup({ IMAGE_VARIANTS: 'off' });
      try {
        const owner = (await registerOwner(api, 'no-variants@example.com')).token;
        const articleId = (await createArticle(api, owner)).id;
        // 400 px wide: with variants on, its srcset would name 160 and 320.
        const res = await upload(api, owner, articleId, JPEG_400x300, 'photo.jpg', 'image/jpeg');
        expect(res.status).toBe(201);
        const { image } = await res.json();
        expect(image.srcset).toBe('');
        const read = await api.request(`/v1/articles/${articleId}`, { token: owner });
        expect((await read.json()).article.images.map((i: { srcset: string }) => i.srcset)).toEqual(['']);
        const stats = await api.request('/v1/media/variants', { token: owner });
        expect((await stats.json()).presets).toEqual([]);
        for (const query of ['?w=160', '?format=webp']) {
          const refused = await api.request(`${image.url}${query}`);
          expect(refused.status, query).toBe(400);
          expect((await errorOf(refused)).message).toContain('IMAGE_VARIANTS=off');
        }
        expect((await api.request(image.url)).status).toBe(200);
      } finally {
        await api.cleanup();
      }
    });
  });
}
