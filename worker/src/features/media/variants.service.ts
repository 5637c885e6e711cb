import type { LinkBase } from '../../contract/links.js';
import { DomainError } from '../../core/domain/errors.js';
import { readJpegOrientation } from '../../core/media/exif-orientation.js';
import { readImageHeader } from '../../core/media/image-header.js';
import { forDecoding, inspectStructure } from '../../core/media/image-integrity.js';
import type { BlobInfo, BlobObject, BlobStore } from '../../ports/blob-store.js';
import type { RenderJob, VariantRenderer } from '../../ports/image-codec.js';
import type { Defer } from '../../ports/runtime.js';
import {
  contentVariantsPrefix,
  imageVariantsPrefix,
  originalKey,
  VARIANT_NAME,
  VARIANTS_PREFIX,
  variantKey,
} from './blob-keys.js';
import { IMAGE_URL_PREFIX } from './image-dto.js';
import type { Image } from './images.port.js';
import type { VariantCacheDto, VariantDto } from './media.schema.js';
import { parseVariantQuery, type VariantRequest, variantSize, variantTarget } from './variant-spec.js';

export interface VariantsDeps {
  blobs: BlobStore;
  renderer: VariantRenderer;
  presets: readonly number[];
  maxImagePixels: number;
  logError: (message: string, err: unknown) => void;
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

/**
 * Beside the variants of bytes the renderer refused (the decoder failed, or
 * ran over its time or memory limit). A photon panic is a wasm trap that
 * leaks what the instance held, so a file is tried once: afterwards its
 * variants are refused without decoding, until the cache is cleared. A
 * `.txt` key, so that every store (the local directory types objects by
 * their extension) holds it as what it is; VARIANT_NAME never matches it.
 */
export const RETRY_MARKER_NAME = 'unreadable.txt';
export const RETRY_MARKER_TYPE = 'text/plain; charset=utf-8';
const RETRY_MARKER_BODY = new TextEncoder().encode(
  'The decoder refused these bytes; cleared with the variant cache.\n',
);
export const retryMarkerKey = (image: Pick<Image, 'id' | 'sha256'>) =>
  contentVariantsPrefix(image.id, image.sha256) + RETRY_MARKER_NAME;

async function readAll(blob: BlobObject): Promise<Uint8Array> {
  return new Uint8Array(await new Response(blob.body).arrayBuffer());
}

export function createVariantsService(deps: VariantsDeps) {
  const { blobs, renderer, logError } = deps;
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

  /**
   * The checks, from the stored bytes themselves (the decoder sees nothing
   * they have not passed), then the job: the size as stored, the turn, the
   * format. Refusals here are cheap to repeat and need no marker.
   */
  function plan(original: Uint8Array, image: Image, request: VariantRequest): RenderJob {
    const header = readImageHeader(original);
    if (!header || header.contentType !== image.contentType)
      throw cannotResize('The stored file is not a readable image');
    if (header.width * header.height > pixelCap)
      throw cannotResize(`Variants are made of images up to ${pixelCap} pixels`);
    const verdict = inspectStructure(original, header.contentType);
    if (!verdict.ok) throw cannotResize(verdict.message);
    const orientation = header.contentType === 'image/jpeg' ? readJpegOrientation(original) : 1;
    const size = variantSize({ ...image, width: header.width, height: header.height }, orientation, request);
    const target = variantTarget(image, request, renderer.lossyWebp);
    // Resize while still stored sideways (fewer pixels to turn), then turn.
    const [width, height] = size.turned ? [size.height, size.width] : [size.width, size.height];
    const format = target.ext === 'png' ? 'png' : target.ext === 'webp' ? 'webp' : 'jpeg';
    const bytes = forDecoding(original, header.contentType);
    return { bytes, width, height, orientation, format, quality: VARIANT_QUALITY };
  }

  /** Makes and stores one variant; the caller made sure no other call makes the same one. */
  async function make(image: Image, request: VariantRequest, key: string, contentType: string): Promise<Uint8Array> {
    const marker = retryMarkerKey(image);
    if (await blobs.head(marker)) throw cannotResize('The image could not be decoded');
    const original = await blobs.get(originalKey(image.filename));
    if (!original) throw new DomainError('not_found', 'Not found');
    const job = plan(await readAll(original), image, request);
    let bytes: Uint8Array;
    try {
      bytes = await renderer.render(job);
    } catch (err) {
      if (err instanceof DomainError) throw err; // the renderer could not run: nothing is known of the image
      logError('variant could not be made', err);
      // Storage trouble here must not turn the answer into a storage error: the refusal stands.
      await blobs
        .put(marker, RETRY_MARKER_BODY, RETRY_MARKER_TYPE)
        .catch((e) => logError('retry marker not written', e));
      throw cannotResize('The image could not be decoded');
    }
    await blobs.put(key, bytes, contentType);
    return bytes;
  }

  /**
   * One render per variant at a time in this process (isolate): concurrent
   * first requests await the same one. Across Worker isolates or Node
   * instances each may render once; the stored variant ends that. The
   * render is kept alive past its own request (waitUntil on Workers), so a
   * first client that hangs up does not fail the others waiting on it.
   */
  const inFlight = new Map<string, Promise<Uint8Array>>();
  function makeOnce(
    image: Image,
    request: VariantRequest,
    key: string,
    contentType: string,
    keepAlive?: Defer,
  ): Promise<Uint8Array> {
    let pending = inFlight.get(key);
    if (!pending) {
      pending = make(image, request, key, contentType).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
      keepAlive?.(pending.catch(() => undefined));
    }
    return pending;
  }

  return {
    presets: deps.presets,

    /** Deterministic from the row and the request: conditional requests need no storage. */
    etag(image: Image, request: VariantRequest): string {
      return `"${image.sha256}-${variantTarget(image, request, renderer.lossyWebp).name}"`;
    },

    contentType(image: Image, request: VariantRequest): string {
      return variantTarget(image, request, renderer.lossyWebp).contentType;
    },

    /** The stored variant, made from the original on first request. */
    async open(
      image: Image,
      request: VariantRequest,
      headOnly = false,
      keepAlive?: Defer,
    ): Promise<BlobInfo | BlobObject> {
      const target = variantTarget(image, request, renderer.lossyWebp);
      const key = variantKey(image.id, image.sha256, target.name);
      const cached = headOnly ? await blobs.head(key) : await blobs.get(key);
      if (cached) return cached;
      const bytes = await makeOnce(image, request, key, target.contentType, keepAlive);
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
    async list(image: Image, links: LinkBase): Promise<VariantDto[]> {
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
            url: `${links.origin}${IMAGE_URL_PREFIX}${image.filename}?${params}`,
            createdAt: item.uploadedAt.toISOString(),
          },
        ];
      });
    },

    /** `?w=&format=` of an image URL, checked against the configured widths; null: the original. */
    parseQuery: (query: Record<string, string[]>): VariantRequest | null => parseVariantQuery(query, deps.presets),

    /** The cache panel: how many variants and how many bytes, over every image. */
    async stats(): Promise<VariantCacheDto> {
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
