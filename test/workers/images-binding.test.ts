import { env } from 'cloudflare:test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImagesBindingRenderer } from '../../worker/src/adapters/image/images-binding.renderer.js';
import { imageVariantsPrefix } from '../../worker/src/features/media/blob-keys.js';
import { retryMarkerKey } from '../../worker/src/features/media/variants.service.js';
import { createArticle, errorOf, registerOwner, upload } from '../support/api-flows.js';
import type { ApiHarness } from '../support/api-harness.js';
import { JPEG_400x300, PNG_1x1 } from '../support/images.js';
import { workerHarness } from './support/worker-harness.js';

/**
 * What a variant answers when Cloudflare's Images binding fails, on workerd
 * with D1 and R2. `wrangler dev`'s local mode cannot be made to answer
 * Cloudflare's codes (it has no quota and reports every decode failure as
 * its own 9523; test/node/wrangler-dev-images-faults.test.ts provokes that
 * one for real), so the binding here is shaped as workerd's own: the form
 * is sent (the original's stream read whole), then the call rejects with an
 * Error carrying Cloudflare's numeric `code`, as its ImagesError does, or
 * the transport's Error without one; or the answer breaks off mid-stream.
 */
type Service = (original: Uint8Array) => Promise<ReadableStream<Uint8Array>>;

const imagesError = (code: number, text: string) =>
  Object.assign(new Error(`IMAGES_TRANSFORM_ERROR ${code}: ERROR: ${text}`), { code });

function fakeImagesBinding(serve: () => Service): ImagesBinding {
  const binding = {
    input(stream: ReadableStream<Uint8Array>) {
      const transformer = {
        transform: () => transformer,
        async output() {
          const body = await serve()(new Uint8Array(await new Response(stream).arrayBuffer()));
          return { image: () => body, contentType: () => 'image/png', response: () => new Response(body) };
        },
      };
      return transformer;
    },
  };
  return binding as unknown as ImagesBinding;
}

const bytesOf = (bytes: Uint8Array) =>
  new Response(bytes as Uint8Array<ArrayBuffer>).body as ReadableStream<Uint8Array>;

describe('variants through the Images binding when it fails, on workerd (D1, R2)', () => {
  let api: ApiHarness;
  let owner: string;
  let articleId: string;
  let calls = 0;
  let service: Service = async () => bytesOf(PNG_1x1);

  beforeAll(async () => {
    api = await workerHarness({}, (deps) => ({
      ...deps,
      renderer: createImagesBindingRenderer(
        fakeImagesBinding(() => {
          calls++;
          return service;
        }),
        deps.logger,
      ),
    }));
    owner = (await registerOwner(api, 'images@example.com')).token;
    articleId = (await createArticle(api, owner)).id;
  });
  afterAll(async () => {
    await api?.cleanup();
  });

  const uploadJpeg = async () => {
    const res = await upload(api, owner, articleId, JPEG_400x300);
    expect(res.status).toBe(201);
    return (await res.json()).image as { id: string; url: string; sha256: string };
  };
  const storedUnder = async (imageId: string) =>
    (await env.MEDIA.list({ prefix: imageVariantsPrefix(imageId) })).objects.map((o) => o.key);

  it.each([
    [9412, 'Input is not an image'],
    [9413, 'Image exceeds the maximum area of 100 megapixels'],
    [9520, 'Unsupported image format'],
  ])(
    'answers the service refusing the bytes (%i) with the 400 photon gives, and never sends them again',
    async (code, text) => {
      const image = await uploadJpeg();
      service = async () => {
        throw imagesError(code, text);
      };
      const before = calls;
      const res = await api.request(`${image.url}?w=160`);
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toEqual({
        code: 'invalid_request',
        message: 'The image could not be decoded',
        issues: [{ path: 'w', message: 'The image could not be decoded' }],
      });
      expect(calls).toBe(before + 1);
      // Only the marker: no variant, and the other widths are refused without asking the service.
      expect(await storedUnder(image.id)).toEqual([retryMarkerKey(image)]);
      expect((await api.request(`${image.url}?w=320&format=png`)).status).toBe(400);
      expect(calls).toBe(before + 1);
    },
  );

  it.each([
    ['the transformation quota spent', imagesError(9422, 'Transformation limit reached')],
    ['the account not on the Images plan', imagesError(9432, 'The Images binding is not available')],
    ['an internal error of the service', imagesError(9523, 'Internal Images binding error')],
    ['the connection dropped (no code)', new Error('Network connection lost.')],
  ])('answers the service failing (%s) with a 503 to retry, stores nothing and marks nothing', async (_, failure) => {
    const image = await uploadJpeg();
    service = async () => {
      throw failure;
    };
    const res = await api.request(`${image.url}?w=160`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    const error = await errorOf(res);
    expect(error).toEqual({ code: 'unavailable', message: 'The image service is unavailable: try again later' });
    expect(await storedUnder(image.id)).toEqual([]);

    // Back again: the next request makes the variant and stores it.
    service = async () => bytesOf(PNG_1x1);
    const again = await api.request(`${image.url}?w=160`);
    expect(again.status).toBe(200);
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(PNG_1x1);
    expect((await storedUnder(image.id)).length).toBe(1);
  });

  it('stores nothing of a variant whose bytes break off mid-stream: a 503, and whole on the next request', async () => {
    const image = await uploadJpeg();
    service = async () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(PNG_1x1.slice(0, 20));
          controller.error(new Error('Network connection lost.'));
        },
      });
    const res = await api.request(`${image.url}?w=160&format=png`);
    expect(res.status).toBe(503);
    expect((await errorOf(res)).code).toBe('unavailable');
    expect(await storedUnder(image.id)).toEqual([]);

    service = async () => bytesOf(PNG_1x1);
    const again = await api.request(`${image.url}?w=160&format=png`);
    expect(again.status).toBe(200);
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(PNG_1x1);
  });
});
