import { DomainError } from '../../core/domain/errors.js';
import { MAX_VARIANT_SOURCE_PIXELS } from '../../core/domain/image-limits.js';
import { decodeCost } from '../../core/media/decode-cost.js';
import { readJpegOrientation } from '../../core/media/exif-orientation.js';
import { readImageHeader } from '../../core/media/image-header.js';
import { forDecoding, inspectStructure } from '../../core/media/image-integrity.js';
import type { BlobInfo, BlobObject, BlobStore } from '../../ports/blob-store.js';
import type { RenderJob, RenderTicket, VariantRenderer } from '../../ports/image-codec.js';
import type { Defer } from '../../ports/runtime.js';
import type { LinkBase } from '../../wire/links.js';
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

  /**
   * Markers being written: the renderer hands its thread to the next job as
   * soon as one fails, before the marker is stored, and a job of the same
   * bytes waiting next must see it. Storage trouble here must not turn the
   * answer into a storage error: the refusal stands.
   */
  const marking = new Set<string>();
  async function mark(marker: string): Promise<void> {
    marking.add(marker);
    await blobs.put(marker, RETRY_MARKER_BODY, RETRY_MARKER_TYPE).catch((e) => logError('retry marker not written', e));
    marking.delete(marker);
  }

  /**
   * Makes and stores one variant; the caller made sure no other call makes
   * the same one. The marker is asked for again when the job leaves the
   * renderer's queue: another variant of the same bytes may have been
   * refused while this one waited.
   */
  async function make(
    image: Image,
    request: VariantRequest,
    key: string,
    contentType: string,
    signal: AbortSignal,
  ): Promise<Uint8Array> {
    const marker = retryMarkerKey(image);
    // Storage first: by the time it answers, a failure just before has been seen (marking).
    const unmarked = async () => {
      if ((await blobs.head(marker)) || marking.has(marker)) throw cannotResize('The image could not be decoded');
    };
    await unmarked();
    const original = await blobs.get(originalKey(image.filename));
    if (!original) throw new DomainError('not_found', 'Not found');
    const job = plan(await readAll(original), image, request);
    const budget = renderer.decodeBudget;
    if (budget !== undefined && decodeCost(job.bytes, readImageHeader(job.bytes)!) > budget) {
      // Known from the header, the same for every width: marked, so that no variant of it reads the original again.
      await mark(marker);
      throw cannotResize('The image would cost too much to decode (its pixels, sample depth and interlacing)');
    }
    const ticket: RenderTicket = { group: image.sha256, beforeStart: unmarked, signal };
    let bytes: Uint8Array;
    try {
      bytes = await renderer.render(job, ticket);
    } catch (err) {
      if (err instanceof DomainError) throw err; // refused unstarted, or the renderer could not run
      const marked = mark(marker); // at once: the next job of these bytes may be starting
      logError('variant could not be made', err);
      await marked;
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
   * first client that hangs up does not fail the others waiting on it; but
   * once every client waiting has gone (their requests aborted), a job that
   * has not started yet is dropped, and the next request starts afresh.
   */
  interface Flight {
    promise: Promise<Uint8Array>;
    waiters: number;
    abandon: AbortController;
  }
  const inFlight = new Map<string, Flight>();
  function makeOnce(
    image: Image,
    request: VariantRequest,
    key: string,
    contentType: string,
    keepAlive?: Defer,
    signal?: AbortSignal,
  ): Promise<Uint8Array> {
    let flight = inFlight.get(key);
    if (!flight) {
      const abandon = new AbortController();
      const promise = make(image, request, key, contentType, abandon.signal).finally(() => {
        if (inFlight.get(key) === started) inFlight.delete(key);
      });
      const started: Flight = { promise, waiters: 0, abandon };
      flight = started;
      inFlight.set(key, started);
      keepAlive?.(promise.catch(() => undefined));
    }
    const joined = flight;
    joined.waiters++;
    if (!signal) return joined.promise; // a caller that cannot go away keeps the job wanted
    const leave = () => {
      if (--joined.waiters > 0) return;
      if (inFlight.get(key) === joined) inFlight.delete(key);
      joined.abandon.abort();
    };
    if (signal.aborted) leave();
    else signal.addEventListener('abort', leave, { once: true });
    const detach = () => signal.removeEventListener('abort', leave);
    joined.promise.then(detach, detach);
    return joined.promise;
  }

  /** The variants stored for this image's current bytes, and whether they are marked as not renderable. */
  async function stored(image: Image, links: LinkBase): Promise<{ variants: VariantDto[]; unreadable: boolean }> {
    const items = await listAll(contentVariantsPrefix(image.id, image.sha256));
    const unreadable = items.some((item) => item.key.endsWith(`/${RETRY_MARKER_NAME}`));
    const variants = items.flatMap((item) => {
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
    return { variants, unreadable };
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

    /** The stored variant, made from the original on first request; `signal`: the request's, aborted when its client goes. */
    async open(
      image: Image,
      request: VariantRequest,
      headOnly = false,
      keepAlive?: Defer,
      signal?: AbortSignal,
    ): Promise<BlobInfo | BlobObject> {
      const target = variantTarget(image, request, renderer.lossyWebp);
      const key = variantKey(image.id, image.sha256, target.name);
      const cached = headOnly ? await blobs.head(key) : await blobs.get(key);
      if (cached) return cached;
      const bytes = await makeOnce(image, request, key, target.contentType, keepAlive, signal);
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
    list: async (image: Image, links: LinkBase): Promise<VariantDto[]> => (await stored(image, links)).variants,

    /** The same, and whether its bytes are marked as not renderable (then no variant is ever made). */
    stored,

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
