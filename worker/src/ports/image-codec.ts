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

/**
 * Makes variants: in the request on Workers (each request has its own CPU
 * and memory budget), off the event loop on Node (worker threads with a time
 * and memory limit). Rejects with a DomainError when it cannot run at all
 * (busy, failed to start): nothing is wrong with the image then. Any other
 * rejection means these bytes could not be made into a variant (the decoder
 * failed, or ran over a limit and was stopped).
 */
export interface VariantRenderer {
  /** False when there is no lossy WebP writer: the core then serves JPEG for `format=webp`. */
  readonly lossyWebp: boolean;
  render(job: RenderJob): Promise<Uint8Array>;
  /** Stops what it started (threads); jobs after this are refused. */
  close?(): Promise<void>;
}
