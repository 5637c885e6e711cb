/**
 * How much structure an image may have before it is refused as a flood.
 * Each cap sits well above what real encoders write, and bounds what a
 * decoder does per byte: work that grows with the count (a JPEG decoder
 * walks every block of the frame once per scan) cannot outgrow the cap.
 * Shared by the structure checks (core/media) and our own JPEG decoder.
 */

/**
 * Scans (SOS segments) in a progressive JPEG: libjpeg's default progression
 * writes 10 for colour and 6 for grey, mozjpeg's scan optimisation and
 * jpegrescan 10–20, Photoshop 3–5. At 16 megapixels each scan costs a
 * decoder 10–20 ms here, so the cap keeps the worst under about a second.
 * A sequential (baseline) frame codes each component in exactly one scan,
 * so it has at most as many scans as components (1–4). Restart markers
 * inside a scan are not scans.
 */
export const MAX_JPEG_SCANS = 64;

/**
 * Marker segments of any kind in a JPEG (APPn, COM, DQT, DHT, DRI, SOF, SOS…).
 * A camera file has about 10, a progressive one 20–40 (tables per scan); an
 * ICC profile or XMP packet split into 64 KiB segments adds one per 64 KiB,
 * so even a 60 MiB file of metadata stays below this.
 */
export const MAX_JPEG_SEGMENTS = 1024;

/** GIF frames a variant is made from; beyond, the file is refused as a frame flood. */
export const MAX_GIF_FRAMES = 1000;

/** GIF blocks (images and extensions): a frame is two (control extension and image), plus a few per file. */
export const MAX_GIF_BLOCKS = 2 * MAX_GIF_FRAMES + 64;

/**
 * Chunks in a PNG. libpng writes 8 KiB IDAT chunks: 1,280 in a 10 MiB file,
 * this many in a 128 MiB one.
 */
export const MAX_PNG_CHUNKS = 16_384;

/** Frames of an animated WebP, as for GIF. */
export const MAX_WEBP_FRAMES = MAX_GIF_FRAMES;

/**
 * Chunks in a WebP, counting those inside animation frames: a still image
 * has at most six (VP8X, ICCP, ALPH, VP8, EXIF, XMP); a frame is an ANMF
 * chunk holding a bitstream (and perhaps ALPH).
 */
export const MAX_WEBP_CHUNKS = 3 * MAX_WEBP_FRAMES + 64;

/**
 * The largest original variants are made of. A decode holds width × height
 * × 4 bytes, plus the input and the resized copy; a Worker has 128 MiB in
 * all. Larger originals are served, but get no variants (nor a srcset).
 */
export const MAX_VARIANT_SOURCE_PIXELS = 16_000_000;

/**
 * The decode work (core/media/decode-cost.ts) a variant may need where the
 * decoder runs in the request (Workers): what the largest 8-bit original
 * costs. A 16-bit or interlaced PNG counts more per pixel, so a small file
 * cannot buy many times that in memory and CPU.
 */
export const REQUEST_DECODE_BUDGET = MAX_VARIANT_SOURCE_PIXELS * 4;
