import type { BlobInfo, BlobObject, BlobStore } from '../../ports/blob-store.js';
import type { ImageCodec, RasterImage } from '../../ports/image-codec.js';
import type { Image } from '../domain/entities.js';
import { DomainError } from '../domain/errors.js';
import { IMAGE_URL_PREFIX } from '../shared/dto.js';
import {
  contentVariantsPrefix,
  imageVariantsPrefix,
  originalKey,
  VARIANT_NAME,
  VARIANTS_PREFIX,
  variantKey,
} from './blob-keys.js';
import { readJpegOrientation } from './exif-orientation.js';
import { readImageHeader } from './image-header.js';
import { isStructurallyComplete } from './image-integrity.js';
import { type VariantRequest, variantSize, variantTarget } from './variant-spec.js';

export interface VariantsDeps {
  blobs: BlobStore;
  codec: ImageCodec;
  presets: readonly number[];
  maxImagePixels: number;
  logError: (message: string, err: unknown) => void;
}

export interface VariantDto {
  /** The requested preset width, or null for `full` (format only). */
  requestedWidth: number | null;
  contentType: string;
  bytes: number;
  url: string;
  createdAt: string;
}

/**
 * A decode holds width × height × 4 bytes, plus the input and the resized
 * copy; a Worker has 128 MiB in all. Larger originals are served, but get
 * no variants.
 */
export const MAX_VARIANT_SOURCE_PIXELS = 16_000_000;

/** JPEG and WebP. */
export const VARIANT_QUALITY = 80;

const cannotResize = (message: string) => new DomainError('invalid_request', message, [{ path: 'w', message }]);

/** Thrown when the decoder itself failed (as opposed to a check before it). */
class DecodeFailed extends Error {}

/**
 * Beside the variants of bytes the decoder failed on. A photon panic is a
 * wasm trap that leaks what the instance held, so a file is tried once:
 * afterwards its variants are refused without decoding, until the cache
 * is cleared.
 */
const UNREADABLE = 'unreadable';

async function readAll(blob: BlobObject): Promise<Uint8Array> {
  return new Uint8Array(await new Response(blob.body).arrayBuffer());
}

export function createVariantsService(deps: VariantsDeps) {
  const { blobs, codec, logError } = deps;
  const pixelCap = Math.min(deps.maxImagePixels, MAX_VARIANT_SOURCE_PIXELS);

  /** All keys under a prefix, page by page (stores cap a page at 1000). */
  async function listAll(prefix: string): Promise<BlobInfo[]> {
    const out: BlobInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await blobs.list(prefix, cursor, 1000);
      out.push(...page.items);
      cursor = page.cursor ?? undefined;
    } while (cursor);
    return out;
  }

  async function deleteUnder(prefix: string): Promise<void> {
    const items = await listAll(prefix);
    // A few at a time: enough to be quick, few enough not to flood the store.
    for (let i = 0; i < items.length; i += 16) {
      await Promise.all(items.slice(i, i + 16).map((item) => blobs.delete(item.key)));
    }
  }

  /** Decode, resize, orient, encode: the one place pixels are touched. */
  async function render(original: Uint8Array, image: Image, request: VariantRequest): Promise<Uint8Array> {
    // The header and structure again, from the stored bytes themselves: the
    // decoder sees nothing the checks have not passed.
    const header = readImageHeader(original);
    if (!header || header.contentType !== image.contentType)
      throw cannotResize('The stored file is not a readable image');
    if (header.width * header.height > pixelCap)
      throw cannotResize(`Variants are made of images up to ${pixelCap} pixels`);
    if (!isStructurallyComplete(original, header.contentType))
      throw cannotResize('The stored image is truncated or damaged');
    const orientation = header.contentType === 'image/jpeg' ? readJpegOrientation(original) : 1;
    const size = variantSize({ ...image, width: header.width, height: header.height }, orientation, request);
    const target = variantTarget(image, request, codec.lossyWebp);
    const owned: RasterImage[] = [];
    try {
      // Resize while still stored sideways (fewer pixels to turn), then turn.
      const [w, h] = size.turned ? [size.height, size.width] : [size.width, size.height];
      const decoded = codec.decode(original, { width: w, height: h });
      owned.push(decoded);
      let current = decoded;
      if (w !== decoded.width || h !== decoded.height) owned.push((current = codec.resize(decoded, w, h)));
      if (orientation !== 1) owned.push((current = codec.orient(current, orientation)));
      const format = target.ext === 'png' ? 'png' : target.ext === 'webp' ? 'webp' : 'jpeg';
      return await codec.encode(current, format, VARIANT_QUALITY);
    } catch (err) {
      logError('variant could not be made', err);
      throw new DecodeFailed('The image could not be decoded');
    } finally {
      for (const r of owned) r.free();
    }
  }

  return {
    presets: deps.presets,

    /** Deterministic from the row and the request: conditional requests need no storage. */
    etag(image: Image, request: VariantRequest): string {
      return `"${image.sha256}-${variantTarget(image, request, codec.lossyWebp).name}"`;
    },

    contentType(image: Image, request: VariantRequest): string {
      return variantTarget(image, request, codec.lossyWebp).contentType;
    },

    /** The stored variant, made from the original on first request. */
    async open(image: Image, request: VariantRequest, headOnly = false): Promise<BlobInfo | BlobObject> {
      const target = variantTarget(image, request, codec.lossyWebp);
      const key = variantKey(image.id, image.sha256, target.name);
      const cached = headOnly ? await blobs.head(key) : await blobs.get(key);
      if (cached) return cached;
      const marker = contentVariantsPrefix(image.id, image.sha256) + UNREADABLE;
      if (await blobs.head(marker)) throw cannotResize('The image could not be decoded');
      const original = await blobs.get(originalKey(image.filename));
      if (!original) throw new DomainError('not_found', 'Not found');
      let bytes: Uint8Array;
      try {
        bytes = await render(await readAll(original), image, request);
      } catch (err) {
        if (!(err instanceof DecodeFailed)) throw err;
        await blobs.put(marker, new Uint8Array(), 'text/plain');
        throw cannotResize(err.message);
      }
      await blobs.put(key, bytes, target.contentType);
      const info = { key, size: bytes.byteLength, contentType: target.contentType, uploadedAt: new Date() };
      if (headOnly) return info;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      });
      return { ...info, body };
    },

    /** The variants stored for this image's current bytes. */
    async list(image: Image): Promise<VariantDto[]> {
      const items = await listAll(contentVariantsPrefix(image.id, image.sha256));
      return items.flatMap((item) => {
        const m = VARIANT_NAME.exec(item.key.slice(item.key.lastIndexOf('/') + 1));
        if (!m) return [];
        const params = new URLSearchParams();
        if (m[1] !== 'full') params.set('w', m[1]!);
        params.set('format', m[2] === 'jpg' ? 'jpeg' : m[2]!);
        return [
          {
            requestedWidth: m[1] === 'full' ? null : Number(m[1]),
            contentType: item.contentType,
            bytes: item.size,
            url: `${IMAGE_URL_PREFIX}${image.filename}?${params}`,
            createdAt: item.uploadedAt.toISOString(),
          },
        ];
      });
    },

    /** The cache panel: how many variants and how many bytes, over every image. */
    async stats(): Promise<{ count: number; bytes: number; presets: number[] }> {
      const items = (await listAll(VARIANTS_PREFIX)).filter((i) =>
        VARIANT_NAME.test(i.key.slice(i.key.lastIndexOf('/') + 1)),
      );
      return { count: items.length, bytes: items.reduce((n, i) => n + i.size, 0), presets: [...deps.presets] };
    },

    /** Every variant; originals untouched. They are made again on request. */
    clearAll: () => deleteUnder(VARIANTS_PREFIX),

    /** Every variant of one image, whichever bytes they were made from. */
    clearFor: (imageId: string) => deleteUnder(imageVariantsPrefix(imageId)),

    /** After the rows are gone: failures leave orphans for the purge, never live variants. */
    async clearForQuietly(imageIds: string[]): Promise<void> {
      const results = await Promise.allSettled(imageIds.map((id) => deleteUnder(imageVariantsPrefix(id))));
      for (const r of results) if (r.status === 'rejected') logError('image variants left behind', r.reason);
    },
  };
}

export type VariantsService = ReturnType<typeof createVariantsService>;
