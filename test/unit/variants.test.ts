import { beforeEach, describe, expect, it } from 'vitest';
import { createCodecRenderer } from '../../worker/src/adapters/image/codec.renderer.js';
import { createPhotonImageCodec } from '../../worker/src/adapters/image/photon.image-codec.js';
import { DomainError } from '../../worker/src/core/domain/errors.js';
import { readImageHeader } from '../../worker/src/core/media/image-header.js';
import { sha256Hex } from '../../worker/src/core/shared/crypto.js';
import type { Image } from '../../worker/src/features/media/images.port.js';
import { createVariantsService, retryMarkerKey } from '../../worker/src/features/media/variants.service.js';
import type { RenderTicket, VariantRenderer } from '../../worker/src/ports/image-codec.js';
import { JPEG_400x300, JPEG_QUADRANTS } from '../support/images.js';
import { memoryBlobStore } from '../support/memory-blob-store.js';

const ID = '0190a000-0000-7000-8000-0000000000aa';
/** Links as an answer makes them, relative to this origin. */
const LINKS = { origin: 'http://cms.test', widths: [160, 320] };

async function storeOriginal(blobs: ReturnType<typeof memoryBlobStore>, bytes: Uint8Array): Promise<Image> {
  const header = readImageHeader(bytes)!;
  const image: Image = {
    id: ID,
    articleId: '0190a000-0000-7000-8000-000000000000',
    filename: `${ID}.jpg`,
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
  await blobs.put(`originals/${image.filename}`, bytes, image.contentType);
  return image;
}

const read = async (blob: unknown) =>
  new Uint8Array(await new Response((blob as { body: ReadableStream }).body).arrayBuffer());

describe('variants service', () => {
  let blobs: ReturnType<typeof memoryBlobStore>;
  let decodes: number;
  let failDecode: boolean | 'unavailable';
  const photon = createCodecRenderer(createPhotonImageCodec());
  const renderer: VariantRenderer = {
    lossyWebp: false,
    async render(job) {
      decodes++;
      await new Promise((r) => setTimeout(r, 5)); // long enough for concurrent requests to meet
      if (failDecode === 'unavailable') throw new DomainError('unavailable', 'busy');
      if (failDecode) throw new Error('RuntimeError: unreachable');
      return photon.render(job);
    },
  };
  const service = () =>
    createVariantsService({ blobs, renderer, presets: [16, 160, 320], maxImagePixels: 50_000_000, logError: () => {} });

  beforeEach(() => {
    blobs = memoryBlobStore(2); // two per page: every listing follows cursors
    decodes = 0;
    failDecode = false;
  });

  it('stores a variant under a key holding the original’s content hash, and decodes once', async () => {
    const image = await storeOriginal(blobs, JPEG_400x300);
    const variants = service();
    await variants.open(image, { width: 160 });
    await variants.open(image, { width: 160 });
    expect(decodes).toBe(1);
    expect(blobs.keys()).toContain(`variants/${ID}/${image.sha256.slice(0, 16)}/160.jpg`);
    expect(variants.etag(image, { width: 160 })).toBe(`"${image.sha256}-160.jpg"`);
  });

  it('never serves a variant of other bytes: new content, new key, new variant', async () => {
    const first = await storeOriginal(blobs, JPEG_400x300);
    const variants = service();
    const old = await read(await variants.open(first, { width: 16 }));
    expect(readImageHeader(old)).toMatchObject({ width: 16, height: 12 });
    // Same id and filename, other bytes (which the app never does): the
    // old variant is not found, a new one is made from the new bytes.
    const second = await storeOriginal(blobs, JPEG_QUADRANTS);
    const fresh = await read(await variants.open(second, { width: 16 }));
    expect(readImageHeader(fresh)).toMatchObject({ width: 16, height: 8 });
    expect(decodes).toBe(2);
    expect((await variants.list(second, LINKS)).map((v) => v.url)).toEqual([
      `http://cms.test/static/uploadedImages/${ID}.jpg?w=16&format=jpeg`,
    ]);
    expect(variants.etag(first, { width: 16 })).not.toBe(variants.etag(second, { width: 16 }));
  });

  it('tries a file the decoder fails on once, until the cache is cleared', async () => {
    const image = await storeOriginal(blobs, JPEG_400x300);
    const variants = service();
    failDecode = true;
    await expect(variants.open(image, { width: 160 })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(variants.open(image, { width: 320 })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(decodes).toBe(1);
    expect(await variants.stats()).toMatchObject({ count: 0, bytes: 0 });
    await variants.clearAll();
    failDecode = false;
    await variants.open(image, { width: 160 });
    expect(decodes).toBe(2);
  });

  it('renders once for concurrent first requests of one variant, and all of them get its bytes', async () => {
    const image = await storeOriginal(blobs, JPEG_400x300);
    const variants = service();
    const all = await Promise.all(Array.from({ length: 8 }, () => variants.open(image, { width: 160 }).then(read)));
    expect(decodes).toBe(1);
    for (const bytes of all) expect(bytes).toEqual(all[0]);
    // Other variants of the same image are other renders.
    await Promise.all([variants.open(image, { width: 320 }), variants.open(image, { width: 16 })]);
    expect(decodes).toBe(3);
  });

  it('hands the one render to keepAlive (waitUntil on Workers), so a first client that hangs up fails no one', async () => {
    const image = await storeOriginal(blobs, JPEG_400x300);
    const variants = service();
    const kept: Promise<unknown>[] = [];
    const keepAlive = (p: Promise<unknown>) => void kept.push(p);
    await Promise.all([
      variants.open(image, { width: 160 }, false, keepAlive),
      variants.open(image, { width: 160 }, true, keepAlive),
    ]);
    expect(kept).toHaveLength(1);
    await expect(kept[0]).resolves.toBeInstanceOf(Uint8Array);
  });

  it('concurrent requests share one refusal; the retry marker is a .txt object the cache panel does not count', async () => {
    const image = await storeOriginal(blobs, JPEG_400x300);
    const variants = service();
    failDecode = true;
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => variants.open(image, { width: 160 })));
    expect(results.every((r) => r.status === 'rejected' && r.reason.code === 'invalid_request')).toBe(true);
    expect(decodes).toBe(1);
    expect(retryMarkerKey(image)).toMatch(/\/unreadable\.txt$/);
    expect(blobs.keys()).toContain(retryMarkerKey(image));
    expect(await variants.stats()).toMatchObject({ count: 0 });
    expect(await variants.list(image, LINKS)).toEqual([]);
  });

  it('a renderer that cannot run (busy, not started) refuses without marking the image', async () => {
    const image = await storeOriginal(blobs, JPEG_400x300);
    const variants = service();
    failDecode = 'unavailable';
    await expect(variants.open(image, { width: 160 })).rejects.toMatchObject({ code: 'unavailable' });
    expect(blobs.keys()).not.toContain(retryMarkerKey(image));
    failDecode = false;
    await variants.open(image, { width: 160 });
    expect(decodes).toBe(2);
  });

  it('counts, lists and clears across pages of the store', async () => {
    const image = await storeOriginal(blobs, JPEG_400x300);
    const variants = service();
    for (const width of [16, 160, 320]) await variants.open(image, { width });
    await variants.open(image, { width: 16, format: 'png' });
    const stats = await variants.stats();
    expect(stats.count).toBe(4);
    expect(stats.presets).toEqual([16, 160, 320]);
    expect(await variants.list(image, LINKS)).toHaveLength(4);
    await variants.clearFor(image.id);
    expect(await variants.stats()).toMatchObject({ count: 0, bytes: 0 });
    expect(blobs.keys()).toEqual([`originals/${image.filename}`]);
  });

  describe('clients of one render', () => {
    /** A renderer that holds each job until told, and keeps its ticket. */
    function heldRenderer() {
      const held: { ticket: RenderTicket | undefined; finish: () => void }[] = [];
      const renderer: VariantRenderer = {
        lossyWebp: false,
        render: (job, ticket) =>
          new Promise((resolve, reject) =>
            held.push({ ticket, finish: () => photon.render(job).then(resolve, reject) }),
          ),
      };
      const variants = createVariantsService({ blobs, renderer, presets: [160], maxImagePixels: 50e6, logError() {} });
      return { held, variants };
    }
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((r) => setTimeout(r, 1));
    };

    it('share one render; one client leaving does not abandon it for the others', async () => {
      const image = await storeOriginal(blobs, JPEG_400x300);
      const { held, variants } = heldRenderer();
      const [a, b] = [new AbortController(), new AbortController()];
      const first = variants.open(image, { width: 160 }, false, undefined, a.signal);
      const second = variants.open(image, { width: 160 }, false, undefined, b.signal);
      first.catch(() => undefined);
      await until(() => held.length === 1);
      a.abort();
      expect(held[0]!.ticket).toMatchObject({ group: image.sha256 });
      expect(held[0]!.ticket!.signal!.aborted).toBe(false);
      held[0]!.finish();
      expect(readImageHeader(await read(await second))).toMatchObject({ width: 160 });
      expect(held).toHaveLength(1);
    });

    it('abandon it once every client has left, and a later request starts afresh', async () => {
      const image = await storeOriginal(blobs, JPEG_400x300);
      const { held, variants } = heldRenderer();
      const leaving = [new AbortController(), new AbortController()];
      for (const c of leaving) variants.open(image, { width: 160 }, false, undefined, c.signal).catch(() => undefined);
      await until(() => held.length === 1);
      for (const c of leaving) c.abort();
      expect(held[0]!.ticket!.signal!.aborted).toBe(true);
      const again = variants.open(image, { width: 160 });
      await until(() => held.length === 2);
      expect(held[1]!.ticket!.signal!.aborted).toBe(false);
      held[1]!.finish();
      expect(readImageHeader(await read(await again))).toMatchObject({ width: 160 });
    });
  });
});
