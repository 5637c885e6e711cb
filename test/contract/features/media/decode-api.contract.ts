import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../../worker/src/app/app.js';
import { readImageHeader } from '../../../../worker/src/core/media/image-header.js';
import { sha256Hex } from '../../../../worker/src/core/shared/crypto.js';
import { originalKey } from '../../../../worker/src/features/media/blob-keys.js';
import type { Image } from '../../../../worker/src/features/media/images.port.js';
import type { RenderJob } from '../../../../worker/src/ports/image-codec.js';
import { createArticle, errorOf, registerOwner, upload } from '../../../support/api-flows.js';
import type { ApiHarness } from '../../../support/api-harness.js';
import {
  blankPng,
  gifFrameFlood,
  gifFrameOutsideScreen,
  jpegMarkerFlood,
  jpegScanFlood,
  pngAncillaryBomb,
  webpAnimation,
  webpCanvasLie,
} from '../../../support/decode-bombs.js';
import { JPEG_400x300, JPEG_QUADRANTS } from '../../../support/images.js';

const BOMBS: [string, () => Uint8Array, RegExp][] = [
  ['a JPEG of 1000 empty scans', () => jpegScanFlood({ width: 2048, height: 2048, scans: 1000 }), /scans/],
  ['a progressive JPEG of 1000 scans', () => jpegScanFlood({ scans: 1000, progressive: true }), /scans/],
  ['a JPEG of 1100 Huffman tables', () => jpegMarkerFlood(1100), /segments/],
  ['a WebP whose 1×1 canvas holds a 16383×16383 VP8 bitstream', () => webpCanvasLie(), /16383×16383/],
  ['a WebP whose canvas holds a larger VP8L bitstream', () => webpCanvasLie({ lossless: true }), /bitstream/],
  [
    'a WebP animation with a frame outside its canvas',
    () => webpAnimation({ canvas: [1, 1], frame: [9999, 9999] }),
    /canvas/,
  ],
  ['a GIF of 1001 frames', () => gifFrameFlood(1001), /frames/],
  ['a GIF whose 1×1 screen holds a 65535×65535 frame', () => gifFrameOutsideScreen(), /screen/],
];

/**
 * Decoding is bounded (docs/features.md, its Variants entry): hostile files are refused
 * from their structure, before any decoder; the decoder gets only what the
 * checks passed; one render per variant at a time; a file the decoder failed
 * on is not tried again until the variant cache is cleared, on every store.
 * A renderer that counts its jobs wraps the target's own (worker threads on
 * Node, in the request on Workers).
 */
export function runDecodeApiContract(name: string, setup: () => Promise<ApiHarness>) {
  describe(`hostile images and bounded decoding (${name})`, () => {
    let api: ApiHarness;
    let owner: string;
    let articleId: string;
    const jobs: RenderJob[] = [];
    let get: (path: string, method?: string) => Promise<Response>;

    beforeAll(async () => {
      api = await setup();
      owner = (await registerOwner(api, 'decode@example.com')).token;
      articleId = (await createArticle(api, owner)).id;
      const inner = api.deps.renderer;
      const app = createApp({
        ...api.deps,
        renderer: {
          lossyWebp: inner.lossyWebp,
          decodeBudget: inner.decodeBudget,
          render(job, ticket) {
            jobs.push(job);
            return inner.render(job, ticket);
          },
        },
      });
      get = async (path, method = 'GET') => app.fetch(new Request(new URL(path, 'http://localhost'), { method }));
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    const uploadImage = async (bytes: Uint8Array) => {
      const res = await upload(api, owner, articleId, bytes, 'x.bin', 'application/octet-stream');
      expect(res.status).toBe(201);
      return (await res.json()).image as { id: string; url: string; width: number; srcset: string };
    };

    /** As if uploaded before uploads refused such files: the row and the blob, straight into storage. */
    const seed = async (bytes: Uint8Array) => {
      const header = readImageHeader(bytes)!;
      const id = crypto.randomUUID();
      const image: Image = {
        id,
        articleId,
        filename: `${id}.${header.extension}`,
        contentType: header.contentType,
        bytes: bytes.byteLength,
        width: header.width,
        height: header.height,
        sha256: await sha256Hex(bytes),
        createdAt: new Date(),
        originalName: null,
        alt: '',
        caption: '',
      };
      await api.deps.blobs.put(originalKey(image.filename), bytes, image.contentType);
      await api.deps.repos.images.create(image);
      return `/static/uploadedImages/${image.filename}`;
    };

    it.each(BOMBS)('refuses %s at upload with a 400 naming what is wrong, and stores nothing', async (_, make, why) => {
      const before = (await api.deps.blobs.list('originals/')).items.length;
      const res = await upload(api, owner, articleId, make(), 'x.bin', 'application/octet-stream');
      expect(res.status).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe('invalid_request');
      expect(error.message).toMatch(why);
      expect((await api.deps.blobs.list('originals/')).items.length).toBe(before);
    });

    it('serves a stored flood or size lie as itself, and refuses its variants without decoding', async () => {
      for (const [label, make] of BOMBS) {
        const bytes = make();
        const url = await seed(bytes);
        const original = await get(url);
        expect([label, original.status]).toEqual([label, 200]);
        expect(new Uint8Array(await original.arrayBuffer())).toEqual(bytes);
        const before = jobs.length;
        const variant = await get(`${url}?w=160`);
        expect([label, variant.status]).toEqual([label, 400]);
        expect([label, jobs.length]).toEqual([label, before]);
      }
    });

    it('hands the decoder a PNG without its compressed ancillary chunks (iCCP, zTXt, iTXt)', async () => {
      for (const kind of ['iCCP', 'zTXt', 'iTXt'] as const) {
        const image = await uploadImage(await pngAncillaryBomb(kind, 32 * 2 ** 20));
        const res = await get(`${image.url}?w=160&format=png`);
        expect([kind, res.status]).toEqual([kind, 200]);
        const job = jobs.at(-1)!;
        expect(job.bytes.length).toBeLessThan(200);
        expect(new TextDecoder('latin1').decode(job.bytes)).not.toContain(kind);
      }
    });

    it('renders once for eight concurrent first requests of one variant, and answers each with its bytes', async () => {
      const image = await uploadImage(JPEG_400x300);
      const before = jobs.length;
      const answers = await Promise.all(Array.from({ length: 8 }, () => get(`${image.url}?w=320`)));
      expect(answers.map((r) => r.status)).toEqual(new Array(8).fill(200));
      const bodies = await Promise.all(answers.map(async (r) => new Uint8Array(await r.arrayBuffer())));
      expect(jobs.length - before).toBe(1);
      for (const body of bodies) expect(body).toEqual(bodies[0]);
      expect(readImageHeader(bodies[0]!)).toMatchObject({ width: 320, height: 240 });
    });

    it('tries a file the decoder fails on once, until the variant cache is cleared, on this store', async () => {
      // Whole and well-formed, but a lossless JPEG (SOF3): photon panics on it.
      const lossless = JPEG_QUADRANTS.slice();
      lossless[lossless.indexOf(0xc0, 2)] = 0xc3;
      const image = await uploadImage(lossless);
      const before = jobs.length;
      const stats = async () => (await api.request('/v1/media/variants', { token: owner })).json();
      const stored = (await stats()).count;
      for (const path of [
        `${image.url}?w=160`,
        `${image.url}?w=160`,
        `${image.url}?w=320`,
        `${image.url}?format=png`,
      ]) {
        const res = await get(path);
        expect(res.status).toBe(400);
        // Not the store's own words (the local directory once refused the marker's type here).
        expect(await res.json()).toMatchObject({ error: { message: 'The image could not be decoded' } });
      }
      expect((await get(`${image.url}?w=160`, 'HEAD')).status).toBe(400);
      expect(jobs.length - before).toBe(1);
      // Marked: the library offers none of its variants.
      const marked = await (await api.request(`/v1/media/${image.id}`, { token: owner })).json();
      expect(marked.image).toMatchObject({ srcset: '', variants: [] });
      expect((await get(image.url)).status).toBe(200);
      expect((await stats()).count).toBe(stored); // the marker is no variant
      expect((await api.request('/v1/media/variants', { method: 'DELETE', token: owner })).status).toBe(204);
      expect((await get(`${image.url}?w=160`)).status).toBe(400);
      expect(jobs.length - before).toBe(2);
    });

    it('offers no srcset for an original over the 16 MP variant cap, whose every variant is a 400', async () => {
      const image = await uploadImage(await blankPng({ width: 4001, height: 4000 }));
      expect(image).toMatchObject({ width: 4001, srcset: '' });
      const detail = await (await api.request(`/v1/media/${image.id}`, { token: owner })).json();
      expect(detail.image.srcset).toBe('');
      const res = await api.request(`/v1/articles/${articleId}`, { token: owner });
      const images = (await res.json()).article.images as { id: string; srcset: string }[];
      expect(images.find((i) => i.id === image.id)?.srcset).toBe('');
      expect((await get(`${image.url}?w=160`)).status).toBe(400);
      // At the cap itself, every width up to the original's.
      const atCap = await uploadImage(await blankPng({ width: 4000, height: 4000 }));
      expect(atCap.srcset.split(', ')).toHaveLength(api.deps.settings.imageVariantWidths.length);
    });
  });
}
