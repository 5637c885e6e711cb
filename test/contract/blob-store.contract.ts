import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageVariantsPrefix, originalKey } from '../../worker/src/features/media/blob-keys.js';
import type { Image } from '../../worker/src/features/media/images.port.js';
import { createVariantsService, retryMarkerKey } from '../../worker/src/features/media/variants.service.js';
import type { BlobInfo, BlobStore } from '../../worker/src/ports/blob-store.js';
import { JPEG_400x300 } from '../support/images.js';

/**
 * The BlobStore contract, run by every adapter (R2 in workerd, local dir and
 * S3 in Node). Each test writes under its own random namespace so the tests
 * never see each other's objects. Keys carry the extension that matches their
 * content type, as the application's keys do (local-dir derives the type from it).
 */
export function runBlobStoreContract(
  name: string,
  setup: () => Promise<{ store: BlobStore; cleanup(): Promise<void> }>,
): void {
  describe(`BlobStore contract: ${name}`, () => {
    // Each test awaits the set-up itself, so a store that cannot start (s3rver
    // not running, say) fails every test instead of leaving them skipped.
    let made: ReturnType<typeof setup> | undefined;
    beforeAll(() => {
      made = setup();
      made.catch(() => undefined);
    });
    afterAll(async () => {
      await (await made?.catch(() => undefined))?.cleanup();
    });
    const check = (title: string, body: (store: BlobStore) => Promise<void>) =>
      it(title, async () => {
        if (!made) throw new Error('BlobStore set-up did not run');
        await body((await made).store);
      });

    check('answers ping', async (store) => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    check('round-trips all 256 byte values', async (store) => {
      const key = `${ns()}bytes.bin`;
      const data = Uint8Array.from({ length: 256 }, (_, i) => i);
      const before = Date.now();
      await store.put(key, data, 'application/octet-stream');
      const object = await store.get(key);
      expect(object).not.toBeNull();
      expect(object!.key).toBe(key);
      expect(object!.size).toBe(256);
      expect(object!.contentType).toBe('application/octet-stream');
      expect(Math.abs(object!.uploadedAt.getTime() - before)).toBeLessThan(5 * 60_000);
      expect(Array.from(await readAll(object!.body))).toEqual(Array.from(data));
    });

    check('round-trips an empty object', async (store) => {
      const key = `${ns()}empty.bin`;
      await store.put(key, new Uint8Array(0), 'application/octet-stream');
      const object = await store.get(key);
      expect(object?.size).toBe(0);
      expect((await readAll(object!.body)).length).toBe(0);
      expect((await store.head(key))?.size).toBe(0);
    });

    check('round-trips a few-megabyte object unchanged', async (store) => {
      const key = `${ns()}large.bin`;
      const data = pseudoRandom(3 * 1024 * 1024 + 17, 42);
      await store.put(key, data, 'application/octet-stream');
      const object = await store.get(key);
      expect(object?.size).toBe(data.length);
      const back = await readAll(object!.body);
      expect(back.length).toBe(data.length);
      expect(await sha256(back)).toBe(await sha256(data));
    });

    check('overwrites an existing key', async (store) => {
      const key = `${ns()}over.bin`;
      await store.put(key, pseudoRandom(5000, 1), 'application/octet-stream');
      const second = pseudoRandom(1234, 2);
      await store.put(key, second, 'application/octet-stream');
      expect((await store.head(key))?.size).toBe(1234);
      expect(await sha256(await readAll((await store.get(key))!.body))).toBe(await sha256(second));
    });

    check('heads an object without its body, and returns null for a missing key', async (store) => {
      const dir = ns();
      await store.put(`${dir}h.png`, pseudoRandom(300, 3), 'image/png');
      const info = await store.head(`${dir}h.png`);
      expect(info).toMatchObject({ key: `${dir}h.png`, size: 300, contentType: 'image/png' });
      expect(info!.uploadedAt).toBeInstanceOf(Date);
      expect(info).not.toHaveProperty('body');
      expect(await store.head(`${dir}missing.png`)).toBeNull();
      expect(await store.get(`${dir}missing.png`)).toBeNull();
    });

    check('deletes, and deleting again or deleting a missing key is not an error', async (store) => {
      const key = `${ns()}gone.bin`;
      await store.put(key, pseudoRandom(10, 4), 'application/octet-stream');
      await store.delete(key);
      expect(await store.get(key)).toBeNull();
      expect(await store.head(key)).toBeNull();
      await expect(store.delete(key)).resolves.toBeUndefined();
      await expect(store.delete(`${ns()}never-was.bin`)).resolves.toBeUndefined();
    });

    check('preserves the content type', async (store) => {
      const dir = ns();
      const cases = [
        ['a.png', 'image/png'],
        ['b.jpg', 'image/jpeg'],
        ['c.webp', 'image/webp'],
        ['d.gif', 'image/gif'],
        ['e.json', 'application/json'],
      ] as const;
      for (const [file, type] of cases) await store.put(dir + file, pseudoRandom(64, 5), type);
      for (const [file, type] of cases) {
        expect((await store.head(dir + file))?.contentType).toBe(type);
        const object = await store.get(dir + file);
        expect(object?.contentType).toBe(type);
        await object?.body.cancel();
      }
      const listed = await listAll(store, dir, 2);
      expect(listed.map((i) => [i.key.slice(dir.length), i.contentType])).toEqual(cases.map((c) => [...c]));
    });

    check('lists by prefix, in key order, page by page', async (store) => {
      const dir = ns();
      const inside = ['p/a1.bin', 'p/a2.bin', 'p/b1.bin', 'p/b2.bin', 'p/c/deep.bin', 'p/c/deeper/x.bin', 'p/d.bin'];
      const outside = ['q/a1.bin', 'p-x.bin', 'pa.bin'];
      for (const [i, file] of [...inside, ...outside].entries()) {
        await store.put(dir + file, pseudoRandom(i + 1, i), 'application/octet-stream');
      }

      const pages: BlobInfo[][] = [];
      let cursor: string | undefined;
      do {
        const page = await store.list(`${dir}p/`, cursor, 3);
        expect(page.items.length).toBeLessThanOrEqual(3);
        pages.push(page.items);
        cursor = page.cursor ?? undefined;
        expect(pages.length).toBeLessThan(10);
      } while (cursor !== undefined);

      expect(pages.length).toBeGreaterThanOrEqual(3);
      const keys = pages.flat().map((i) => i.key);
      expect(keys).toEqual(inside.map((f) => dir + f));
      const sizes = pages.flat().map((i) => i.size);
      expect(sizes).toEqual(inside.map((_, i) => i + 1));

      expect((await listAll(store, `${dir}p/a`, 100)).map((i) => i.key)).toEqual([`${dir}p/a1.bin`, `${dir}p/a2.bin`]);
      expect((await listAll(store, `${dir}p/c/`, 100)).length).toBe(2);
      expect((await listAll(store, dir, 1000)).length).toBe(inside.length + outside.length);
      expect(await store.list(`${ns()}nothing/`)).toEqual({ items: [], cursor: null });
    });

    check('rejects malformed keys with invalid_request and writes nothing', async (store) => {
      const bad = [
        '../x.bin',
        '/abs.bin',
        'a//b.bin',
        'a\\b.bin',
        '%2e%2e/x.bin',
        'a\0b.bin',
        `${'a'.repeat(2000)}.bin`,
        '',
        'a/',
        './x.bin',
        'a/./b.bin',
        'a/../b.bin',
        'a b.bin',
        'caf\u00e9.bin',
        'a\nb.bin',
      ];
      for (const key of bad) {
        await expect(
          store.put(key, new Uint8Array([1]), 'application/octet-stream'),
          `put ${JSON.stringify(key)}`,
        ).rejects.toMatchObject({
          code: 'invalid_request',
        });
        await expect(store.get(key), `get ${JSON.stringify(key)}`).rejects.toMatchObject({ code: 'invalid_request' });
        await expect(store.head(key)).rejects.toMatchObject({ code: 'invalid_request' });
        await expect(store.delete(key)).rejects.toMatchObject({ code: 'invalid_request' });
      }
      for (const prefix of ['../', '/abs', 'a//', 'a\\', '%2e%2e/', '../../etc/']) {
        await expect(store.list(prefix), `list ${JSON.stringify(prefix)}`).rejects.toMatchObject({
          code: 'invalid_request',
        });
      }
      await expect(store.list('', undefined, 0)).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(store.list('', undefined, 1.5)).rejects.toMatchObject({ code: 'invalid_request' });
    });

    check(
      'holds the variants service’s retry marker: an image the decoder refused is not decoded again',
      async (store) => {
        const id = crypto.randomUUID();
        const image: Image = {
          id,
          articleId: crypto.randomUUID(),
          filename: `${id}.jpg`,
          contentType: 'image/jpeg',
          bytes: JPEG_400x300.byteLength,
          width: 400,
          height: 300,
          sha256: await sha256(JPEG_400x300),
          createdAt: new Date(),
          originalName: null,
          alt: '',
          caption: '',
        };
        let renders = 0;
        const errors: string[] = [];
        const variants = createVariantsService({
          blobs: store,
          renderer: {
            lossyWebp: false,
            async render() {
              renders++;
              throw new Error('RuntimeError: unreachable');
            },
          },
          presets: [160, 320],
          maxImagePixels: 50_000_000,
          logError: (message) => errors.push(message),
        });
        await store.put(originalKey(image.filename), JPEG_400x300, 'image/jpeg');
        try {
          for (const width of [160, 160, 320]) {
            await expect(variants.open(image, { width })).rejects.toMatchObject({
              code: 'invalid_request',
              message: 'The image could not be decoded',
            });
          }
          expect(renders).toBe(1);
          expect(errors).toEqual(['variant could not be made']); // the marker itself was written
          expect((await store.head(retryMarkerKey(image)))?.contentType).toMatch(/^text\/plain/);
          await variants.clearFor(id);
          await expect(variants.open(image, { width: 160 })).rejects.toMatchObject({ code: 'invalid_request' });
          expect(renders).toBe(2);
        } finally {
          await variants.clearFor(id);
          await store.delete(originalKey(image.filename));
        }
        expect((await listAll(store, imageVariantsPrefix(id), 10)).length).toBe(0);
      },
    );

    check('leaves one whole object when the same key is put concurrently', async (store) => {
      const key = `${ns()}race.bin`;
      const size = 256 * 1024;
      const versions = Array.from({ length: 8 }, (_, i) => new Uint8Array(size).fill(i + 1));
      await Promise.all(versions.map((v) => store.put(key, v, 'application/octet-stream')));
      const object = await store.get(key);
      const bytes = await readAll(object!.body);
      expect(bytes.length).toBe(size);
      const first = bytes[0]!;
      expect(first).toBeGreaterThanOrEqual(1);
      expect(first).toBeLessThanOrEqual(8);
      expect(bytes.every((b) => b === first)).toBe(true);
      expect((await store.head(key))?.size).toBe(size);
      expect((await listAll(store, key, 10)).map((i) => i.key)).toEqual([key]);
    });
  });
}

let counter = 0;
function ns(): string {
  counter += 1;
  return `contract-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}/`;
}

async function listAll(store: BlobStore, prefix: string, limit: number): Promise<BlobInfo[]> {
  const items: BlobInfo[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const page = await store.list(prefix, cursor, limit);
    items.push(...page.items);
    if (!page.cursor) return items;
    cursor = page.cursor;
  }
  throw new Error('list never ended');
}

export async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/** Deterministic bytes (xorshift), so a failure is reproducible. */
export function pseudoRandom(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

async function sha256(data: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(data)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
