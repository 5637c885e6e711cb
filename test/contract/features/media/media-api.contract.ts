import { PhotonImage } from '@cf-wasm/photon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readImageHeader } from '../../../../worker/src/core/media/image-header.js';
import { createArticle, errorOf, registerOwner, upload } from '../../../support/api-flows.js';
import type { ApiHarness, TestResponse } from '../../../support/api-harness.js';
import {
  GIF_1x1,
  gifWithFrames,
  JPEG_400x300,
  JPEG_QUADRANTS,
  JPEG_QUADRANTS_800x400,
  PNG_QUADRANTS,
  pngWithScript,
  WEBP_1x1,
  withExifOrientation,
} from '../../../support/images.js';

const bytesOf = async (res: TestResponse) => new Uint8Array(await res.arrayBuffer());

/** The JPEG with its frame header claiming another size (the pixels stay small). */
function withDeclaredSize(jpeg: Uint8Array, width: number, height: number): Uint8Array {
  const out = jpeg.slice();
  for (let o = 2; o + 9 < out.length; o += 2 + ((out[o + 2]! << 8) | out[o + 3]!)) {
    if (out[o + 1] === 0xc0 || out[o + 1] === 0xc2) {
      out.set([height >> 8, height & 0xff, width >> 8, width & 0xff], o + 5);
      return out;
    }
  }
  throw new Error('no frame header');
}

/** RGB of one pixel of a PNG or JPEG, each channel rounded to 0 or 255. */
function colourAt(bytes: Uint8Array, x: number, y: number): string {
  const image = PhotonImage.new_from_byteslice(bytes);
  try {
    const px = image.get_raw_pixels();
    const i = (y * image.get_width() + x) * 4;
    return [px[i]!, px[i + 1]!, px[i + 2]!].map((c) => (c > 127 ? 255 : 0)).join(',');
  } finally {
    image.free();
  }
}

/** The media library and image variants, per docs/api.md#media-library-variants-and-purge. */
export function runMediaApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`media API and image variants (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let articleId: string;
    const uploadImage = async (bytes: Uint8Array, article = articleId) => {
      const res = await upload(api, owner, article, bytes);
      expect(res.status).toBe(201);
      return (await res.json()).image as { id: string; url: string; sha256: string; filename: string };
    };
    const stats = async () => (await api.request('/v1/media/variants', { token: owner })).json();

    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'media@example.com')).token;
      articleId = (await createArticle(api, owner)).id;
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('makes a preset-width variant on first request, then serves the stored one with ETag and no-cache', async () => {
      const image = await uploadImage(JPEG_400x300);
      const first = await api.request(`${image.url}?w=160`);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('image/jpeg');
      expect(first.headers.get('cache-control')).toBe('public, no-cache');
      expect(first.headers.get('x-content-type-options')).toBe('nosniff');
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^"[0-9a-f]{64}-160\.jpg"$/);
      const bytes = await bytesOf(first);
      expect(readImageHeader(bytes)).toMatchObject({ contentType: 'image/jpeg', width: 160, height: 120 });
      expect(Number(first.headers.get('content-length'))).toBe(bytes.length);

      const again = await api.request(`${image.url}?w=160`);
      expect(await bytesOf(again)).toEqual(bytes);
      expect((await api.request(`${image.url}?w=160`, { headers: { 'if-none-match': etag! } })).status).toBe(304);
      const head = await api.request(`${image.url}?w=160`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(bytes.length));
      // The original keeps its own ETag.
      expect((await api.request(image.url)).headers.get('etag')).toBe(`"${image.sha256}"`);
    });

    it('never upscales; format=png is PNG, format=webp is lossy WebP', async () => {
      const image = await uploadImage(JPEG_400x300);
      const wide = await api.request(`${image.url}?w=640`);
      expect(readImageHeader(await bytesOf(wide))).toMatchObject({ width: 400, height: 300 });
      const png = await api.request(`${image.url}?w=320&format=png`);
      expect(png.headers.get('content-type')).toBe('image/png');
      expect(readImageHeader(await bytesOf(png))).toMatchObject({ contentType: 'image/png', width: 320, height: 240 });
      const webp = await api.request(`${image.url}?format=webp&w=320`);
      expect(webp.headers.get('content-type')).toBe('image/webp');
      const webpBytes = await bytesOf(webp);
      expect(readImageHeader(webpBytes)).toMatchObject({ contentType: 'image/webp', width: 320, height: 240 });
      // 'VP8 ' is the lossy bitstream ('VP8L' would be lossless, many times larger).
      expect(new TextDecoder().decode(webpBytes.subarray(12, 16))).toBe('VP8 ');
      const jpeg = await bytesOf(await api.request(`${image.url}?format=jpeg&w=320`));
      expect(webpBytes.length).toBeLessThan(jpeg.length * 1.5);
    });

    it.each([
      ['GIF', GIF_1x1, 'image/png'],
      ['WebP', WEBP_1x1, 'image/webp'],
      ['PNG', PNG_QUADRANTS, 'image/png'],
    ])('makes variants of a %s original (type follows the original when format is absent)', async (_, bytes, type) => {
      const image = await uploadImage(bytes);
      const res = await api.request(`${image.url}?w=160`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(readImageHeader(await bytesOf(res))?.contentType).toBe(type);
    });

    it.each([
      ['a width that is not a preset', '?w=100'],
      ['a width that is not a number', '?w=abc'],
      ['an empty width', '?w='],
      ['a repeated width', '?w=160&w=320'],
      ['a repeated format', '?format=png&format=png'],
      ['an unknown format', '?format=gif'],
      ['an unknown parameter', '?w=160&crop=1'],
    ])('refuses %s with 400', async (_, query) => {
      const image = await uploadImage(PNG_QUADRANTS);
      const res = await api.request(`${image.url}${query}`);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('invalid_request');
    });

    it.each([
      [3, '32x16', [31, 15]],
      [6, '16x32', [15, 0]],
      [8, '16x32', [0, 31]],
    ])('turns a JPEG with EXIF orientation %i upright', async (orientation, size, [x, y]) => {
      const image = await uploadImage(withExifOrientation(JPEG_QUADRANTS, orientation));
      const res = await api.request(`${image.url}?format=png`);
      expect(res.status).toBe(200);
      const bytes = await bytesOf(res);
      const header = readImageHeader(bytes)!;
      expect(`${header.width}x${header.height}`).toBe(size);
      // The stored top-left quadrant is red; upright, it lies at this corner.
      expect(colourAt(bytes, x!, y!)).toBe('255,0,0');
    });

    it('decodes a large JPEG at a reduced scale with its colours and orientation intact', async () => {
      // 800×400 stored, turned by EXIF 6 to 400×800: 160 px wide is 320×160 stored, decoded at 1/2.
      const image = await uploadImage(withExifOrientation(JPEG_QUADRANTS_800x400, 6));
      const res = await api.request(`${image.url}?w=160&format=png`);
      expect(res.status).toBe(200);
      const bytes = await bytesOf(res);
      expect(readImageHeader(bytes)).toMatchObject({ width: 160, height: 320 });
      // Turned a quarter clockwise: stored top-left (red) is now top-right, and so on round.
      expect(colourAt(bytes, 154, 5)).toBe('255,0,0');
      expect(colourAt(bytes, 154, 314)).toBe('0,255,0');
      expect(colourAt(bytes, 5, 5)).toBe('0,0,255');
      expect(colourAt(bytes, 5, 314)).toBe('255,255,255');
    });

    it('refuses variants of damaged or oversized originals without a crash, and keeps serving', async () => {
      const truncated = await uploadImage(JPEG_400x300.slice(0, 1500));
      const cut = await api.request(`${truncated.url}?w=160`);
      expect(cut.status).toBe(400);
      expect(await cut.text()).not.toMatch(/at .*\.(js|ts)/);
      // 5000×4000 declared: under the upload cap, over what a variant may decode.
      const flood = await uploadImage(withDeclaredSize(JPEG_QUADRANTS, 5000, 4000));
      expect((await api.request(`${flood.url}?w=160`)).status).toBe(400);
      // A PNG with a script appended still yields a PNG, typed as one.
      const polyglot = await uploadImage(pngWithScript());
      const res = await api.request(`${polyglot.url}?format=png`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(new TextDecoder().decode(await bytesOf(res))).not.toContain('<script>');
      // Whole and well-formed, but a lossless JPEG (SOF3) the decoder cannot read:
      // refused on every request, and the store and the decoder stay usable.
      const lossless = JPEG_QUADRANTS.slice();
      lossless[lossless.indexOf(0xc0, 2)] = 0xc3;
      const unreadable = await uploadImage(lossless);
      for (let i = 0; i < 3; i++) expect((await api.request(`${unreadable.url}?w=160`)).status).toBe(400);
      expect((await api.request(unreadable.url)).status).toBe(200);
      const fine = await uploadImage(JPEG_400x300);
      expect((await api.request(`${fine.url}?w=160`)).status).toBe(200);
    });

    it('refuses a GIF frame flood at upload, and makes variants of a short animation', async () => {
      const flood = await upload(api, owner, articleId, gifWithFrames(1001), 'x.gif', 'image/gif');
      expect(flood.status).toBe(400);
      expect((await errorOf(flood)).code).toBe('invalid_request');
      const animation = await uploadImage(gifWithFrames(3));
      const res = await api.request(`${animation.url}?format=png`);
      expect(res.status).toBe(200);
      expect(readImageHeader(await bytesOf(res))).toMatchObject({ contentType: 'image/png', width: 1, height: 1 });
    });

    it('GET /v1/media pages every image newest first, by article and by filename text', async () => {
      const other = (await createArticle(api, owner)).id;
      const first = await uploadImage(PNG_QUADRANTS, other);
      const second = await uploadImage(PNG_QUADRANTS, other);
      const list = async (query: string) => {
        const res = await api.request(`/v1/media${query}`, { token: owner });
        expect(res.status).toBe(200);
        return res.json();
      };
      const all = await list('?limit=100');
      expect(all.items[0].id).toBe(second.id);
      expect(all.items[1].id).toBe(first.id);
      expect(all.items.some((i: { articleId: string }) => i.articleId === articleId)).toBe(true);

      const byArticle = await list(`?articleId=${other}`);
      expect(byArticle.items.map((i: { id: string }) => i.id)).toEqual([second.id, first.id]);
      const page1 = await list(`?articleId=${other}&limit=1`);
      expect(page1.items.map((i: { id: string }) => i.id)).toEqual([second.id]);
      const page2 = await list(`?articleId=${other}&limit=1&cursor=${page1.nextCursor}`);
      expect(page2.items.map((i: { id: string }) => i.id)).toEqual([first.id]);
      expect(page2.nextCursor).toBeNull();

      const found = await list(`?q=${first.filename.slice(9, 23)}`);
      expect(found.items.map((i: { id: string }) => i.id)).toEqual([first.id]);
      expect(
        (await list(`?q=${first.filename.slice(-10).toUpperCase()}`)).items.map((i: { id: string }) => i.id),
      ).toEqual([first.id]);
      // LIKE wildcards in the text match only themselves (no filename holds them).
      expect((await list('?q=%25')).items).toEqual([]);
      expect((await list('?q=_')).items).toEqual([]);
      expect((await list('?q=.png%25')).items).toEqual([]);

      for (const bad of ['?articleId=nope', '?q=', `?q=${'x'.repeat(49)}`, '?limit=0', '?q=a&q=b']) {
        const res = await api.request(`/v1/media${bad}`, { token: owner });
        expect(res.status).toBe(400);
      }
      expect((await api.request('/v1/media')).status).toBe(401);
    });

    it('GET /v1/media/:id lists the image with its variants', async () => {
      const image = await uploadImage(JPEG_400x300);
      await api.request(`${image.url}?w=160`);
      await api.request(`${image.url}?w=320&format=png`);
      const res = await api.request(`/v1/media/${image.id}`, { token: owner });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.image).toMatchObject({ id: image.id, articleId, filename: image.filename, sha256: image.sha256 });
      const urls = body.image.variants.map((v: { url: string }) => v.url).sort();
      expect(urls).toEqual([`${image.url}?w=160&format=jpeg`, `${image.url}?w=320&format=png`]);
      for (const v of body.image.variants) expect(v.bytes).toBeGreaterThan(0);
      expect((await api.request(`/v1/media/0190a000-0000-7000-8000-000000000000`, { token: owner })).status).toBe(404);
      expect((await api.request(`/v1/media/not-an-id`, { token: owner })).status).toBe(404);
    });

    it('the variant cache panel counts, clears everything, and variants are made again', async () => {
      const image = await uploadImage(JPEG_400x300);
      await api.request(`${image.url}?w=160`);
      const before = await stats();
      expect(before.count).toBeGreaterThan(0);
      expect(before.bytes).toBeGreaterThan(0);
      expect(before.presets).toEqual([160, 320, 640, 960, 1280, 1920]);

      expect((await api.request('/v1/media/variants', { method: 'DELETE', token: owner })).status).toBe(204);
      expect(await stats()).toMatchObject({ count: 0, bytes: 0 });
      const original = await api.request(image.url);
      expect(original.status).toBe(200);
      expect(await bytesOf(original)).toEqual(JPEG_400x300);

      expect((await api.request(`${image.url}?w=160`)).status).toBe(200);
      expect((await stats()).count).toBe(1);
    });

    it('DELETE /v1/media/:id/variants clears one image’s variants only', async () => {
      const a = await uploadImage(JPEG_400x300);
      const b = await uploadImage(JPEG_400x300);
      await api.request(`${a.url}?w=160`);
      await api.request(`${b.url}?w=160`);
      const count = (await stats()).count;
      expect((await api.request(`/v1/media/${a.id}/variants`, { method: 'DELETE', token: owner })).status).toBe(204);
      expect((await stats()).count).toBe(count - 1);
      expect((await (await api.request(`/v1/media/${a.id}`, { token: owner })).json()).image.variants).toEqual([]);
      expect((await (await api.request(`/v1/media/${b.id}`, { token: owner })).json()).image.variants).toHaveLength(1);
    });

    it('DELETE /v1/media/:id removes the row, the original and every variant at once', async () => {
      const image = await uploadImage(JPEG_400x300);
      await api.request(`${image.url}?w=160`);
      await api.request(`${image.url}?w=320`);
      const count = (await stats()).count;
      expect((await api.request(`/v1/media/${image.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
      expect((await api.request(image.url)).status).toBe(404);
      expect((await api.request(`${image.url}?w=160`)).status).toBe(404);
      expect((await api.request(`/v1/media/${image.id}`, { token: owner })).status).toBe(404);
      expect((await stats()).count).toBe(count - 2);
      expect((await api.request(`/v1/media/${image.id}`, { method: 'DELETE', token: owner })).status).toBe(404);
    });

    it('deleting an article removes its images’ variants', async () => {
      const other = (await createArticle(api, owner)).id;
      const image = await uploadImage(JPEG_400x300, other);
      await api.request(`${image.url}?w=160`);
      const count = (await stats()).count;
      expect((await api.request(`/v1/articles/${other}`, { method: 'DELETE', token: owner })).status).toBe(204);
      expect((await api.request(`${image.url}?w=160`)).status).toBe(404);
      expect((await stats()).count).toBe(count - 1);
    });

    it('needs a session: 401 without one (or with a bad token); the files themselves are public', async () => {
      const image = await uploadImage(PNG_QUADRANTS);
      for (const [method, path] of [
        ['GET', '/v1/media/variants'],
        ['DELETE', '/v1/media/variants'],
        ['GET', `/v1/media/${image.id}`],
        ['DELETE', `/v1/media/${image.id}`],
        ['DELETE', `/v1/media/${image.id}/variants`],
      ] as const) {
        expect((await api.request(path, { method })).status).toBe(401);
        expect((await api.request(path, { method, token: 'not-a-token' })).status).toBe(401);
      }
      expect((await api.request(image.url)).status).toBe(200);
    });
  });
}
