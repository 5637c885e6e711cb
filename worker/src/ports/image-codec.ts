/**
 * Decoding, resizing and encoding pixels: photon (Rust → wasm) on both
 * targets. Every call is synchronous CPU work; a decoded image holds memory
 * outside the JS heap until `free()`.
 */
export type EncodeFormat = 'jpeg' | 'png' | 'webp';

export interface RasterImage {
  readonly width: number;
  readonly height: number;
  free(): void;
}

/** EXIF orientations 1–8 (1 = as stored). */
export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

export interface ImageCodec {
  /** False when this codec has no lossy WebP writer: the core then serves JPEG for `format=webp`. */
  readonly lossyWebp: boolean;
  /**
   * Throws on bytes it cannot decode; callers check type, size and
   * completeness first. With `atLeast`, the codec may decode at a reduced
   * size no smaller than it (JPEG DCT scaling): much less work for a
   * thumbnail of a large photo. The result's width and height say what it did.
   */
  decode(bytes: Uint8Array, atLeast?: { width: number; height: number }): RasterImage;
  /** A new image; the input stays valid and must still be freed. */
  resize(image: RasterImage, width: number, height: number): RasterImage;
  /** A new image turned upright for this EXIF orientation (may swap width and height). */
  orient(image: RasterImage, orientation: Orientation): RasterImage;
  /** `quality` (1–100) applies to JPEG and WebP. WebP only when `lossyWebp`. */
  encode(image: RasterImage, format: EncodeFormat, quality: number): Promise<Uint8Array>;
}

/** One variant to make: decode, resize, turn upright, encode. */
export interface RenderJob {
  /** The original, already checked (type, size, structure) and trimmed for decoding. */
  bytes: Uint8Array;
  /** The size to resize to, as stored (before turning: fewer pixels to turn). */
  width: number;
  height: number;
  orientation: Orientation;
  format: EncodeFormat;
  /** 1–100, for JPEG and WebP. */
  quality: number;
}

/** What a renderer with a queue needs to know of a job besides its pixels. */
export interface RenderTicket {
  /**
   * Jobs of one group (one original's bytes) share the queue and the threads
   * with other groups: a group gets at most its share of either, and groups
   * take turns, so one hostile image cannot starve the others.
   */
  group: string;
  /** Run when the job is taken off the queue, before it starts: a rejection refuses it unstarted. */
  beforeStart?: () => Promise<void>;
  /** Aborted once no client waits for the job: a job not yet started is dropped. */
  signal?: AbortSignal;
}

/**
 * Makes variants: in the request on Workers (each request has its own CPU
 * and memory budget, and the decode work is bounded from the header first),
 * off the event loop on Node (worker threads with a time and memory limit,
 * behind a bounded queue shared fairly across images). Rejects with a DomainError when it cannot run at all
 * (busy, failed to start): nothing is wrong with the image then. Any other
 * rejection means these bytes could not be made into a variant (the decoder
 * failed, or ran over a limit and was stopped).
 */
export interface VariantRenderer {
  /** False when there is no lossy WebP writer: the core then serves JPEG for `format=webp`. */
  readonly lossyWebp: boolean;
  render(job: RenderJob, ticket?: RenderTicket): Promise<Uint8Array>;
  /**
   * The most decode work (bytes of pixels at the decoder's depth, see
   * core/media/decode-cost.ts) a job may need, checked from the header before
   * the job is made; undefined: bounded while running instead (Node's threads).
   */
  readonly decodeBudget?: number;
  /** Stops what it started (threads); jobs after this are refused. */
  close?(): Promise<void>;
}
