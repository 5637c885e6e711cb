import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import sharp, { type JpegOptions } from 'sharp';
import { v7 as uuidv7 } from 'uuid';
import type { EncodeFormat, ImageCodec } from '../../worker/src/ports/image-codec.ts';
import { importAppModule } from './lib/app-module.ts';
import { get, throughputRounds } from './lib/load.ts';

/**
 * Image variants in `npm run bench`: photon (what the app runs, on both
 * targets) against sharp (libvips, native) for the same operation, and the
 * seeded original the server benchmark serves as a cached variant and as
 * itself.
 */

export const SOURCE = { width: 2000, height: 1500 };
export const TARGET_WIDTH = 400;
/** The app's JPEG quality for variants (features/media/variants.service.ts). */
export const QUALITY = 80;

/**
 * A 2000×1500 photo-like JPEG (quality 90): smooth light and shade with
 * fine texture, so neither encoder gets an unrealistically easy or hard
 * picture. Deterministic, so runs compare.
 */
export async function makeSourceJpeg(
  { width: w, height: h }: { width: number; height: number } = SOURCE,
  jpegOptions: JpegOptions = {},
): Promise<Buffer> {
  const raw = Buffer.alloc(w * h * 3);
  let seed = 20261125;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      const base = 128 + 60 * Math.sin(x / 180) * Math.cos(y / 140);
      const texture = 18 * Math.sin((x + y) / 7) * Math.sin(x / 23) + (rand() - 0.5) * 16;
      raw[i] = Math.max(0, Math.min(255, base + texture + 30 * Math.sin(y / 300)));
      raw[i + 1] = Math.max(0, Math.min(255, base * 0.9 + texture));
      raw[i + 2] = Math.max(0, Math.min(255, 200 - base * 0.6 + texture));
    }
  }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 90, ...jpegOptions })
    .toBuffer();
}

/**
 * The app's own codec (codecs/image/photon.image-codec.ts with the libwebp
 * encoder, as wiring/node.ts builds it), bundled from the TypeScript sources
 * with esbuild so the bench measures exactly what the server runs.
 */
async function appCodec(): Promise<ImageCodec> {
  // The scripts' type check leaves the worker's sources out (they use syntax it does not allow): typed by hand.
  type Adapters = {
    createPhotonImageCodec(encoder: unknown): ImageCodec;
    createWebpEncoder(load: unknown): unknown;
    loadWebpEncoderWasm: unknown;
  };
  const { createPhotonImageCodec, createWebpEncoder, loadWebpEncoderWasm } = await importAppModule<Adapters>(
    'codec',
    [
      "export { createPhotonImageCodec } from './worker/src/codecs/image/photon.image-codec.ts';",
      "export { createWebpEncoder } from './worker/src/codecs/image/webp.encoder.ts';",
      "export { loadWebpEncoderWasm } from './worker/src/adapters/image/webp-wasm.node.ts';",
    ].join('\n'),
  );
  return createPhotonImageCodec(createWebpEncoder(loadWebpEncoderWasm));
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/**
 * The app's path (features/media/variants.service.ts): decode (at a reduced
 * scale where the codec can), resize, encode.
 */
async function appVariant(
  codec: ImageCodec,
  jpeg: Uint8Array,
  width: number,
  height: number,
  format: EncodeFormat,
): Promise<Uint8Array> {
  const decoded = codec.decode(jpeg, { width, height });
  const resized = codec.resize(decoded, width, height);
  try {
    return await codec.encode(resized, format, QUALITY);
  } finally {
    resized.free();
    decoded.free();
  }
}

/** Median time and output size of each, after one discarded warm-up run. */
export interface CodecTiming {
  ms: number;
  bytes: number;
}

export interface CodecComparison {
  iterations: number;
  sharpConcurrency: number;
  jpeg: { app: CodecTiming; sharp: CodecTiming };
  webp: { app: CodecTiming; sharp: CodecTiming };
}

export async function compareCodecs(jpeg: Buffer, { iterations = 7 } = {}): Promise<CodecComparison> {
  const input = new Uint8Array(jpeg);
  const height = Math.round((SOURCE.height * TARGET_WIDTH) / SOURCE.width);
  const codec = await appCodec();
  const out: Partial<Pick<CodecComparison, 'jpeg' | 'webp'>> = {};
  for (const format of ['jpeg', 'webp'] as const) {
    const ours = { ms: [] as number[], bytes: 0 };
    const vips = { ms: [] as number[], bytes: 0 };
    const viaSharp = () => sharp(jpeg).resize(TARGET_WIDTH)[format]({ quality: QUALITY }).toBuffer();
    await appVariant(codec, input, TARGET_WIDTH, height, format);
    await viaSharp();
    for (let i = 0; i < iterations; i++) {
      let t0 = performance.now();
      ours.bytes = (await appVariant(codec, input, TARGET_WIDTH, height, format)).length;
      ours.ms.push(performance.now() - t0);
      t0 = performance.now();
      vips.bytes = (await viaSharp()).length;
      vips.ms.push(performance.now() - t0);
    }
    out[format] = {
      app: { ms: median(ours.ms), bytes: ours.bytes },
      sharp: { ms: median(vips.ms), bytes: vips.bytes },
    };
  }
  if (!out.jpeg || !out.webp) throw new Error('both formats are measured');
  return { iterations, sharpConcurrency: sharp.concurrency(), jpeg: out.jpeg, webp: out.webp };
}

/**
 * Stores the JPEG as an image of the newest article, as an upload would:
 * the row in SQLite and the file under `{uploads}/originals/`. Returns its
 * filename.
 */
export function seedImage(dbFile: string, uploadsDir: string, jpeg: Buffer): string {
  const db = new Database(dbFile);
  try {
    const article = db.prepare<[], { id: string }>('SELECT id FROM articles ORDER BY id DESC LIMIT 1').get();
    if (!article) throw new Error('no article to attach the benchmark image to');
    const id = uuidv7();
    const filename = `${id}.jpg`;
    mkdirSync(path.join(uploadsDir, 'originals'), { recursive: true });
    writeFileSync(path.join(uploadsDir, 'originals', filename), jpeg);
    db.prepare(
      'INSERT INTO images (id, article_id, filename, content_type, bytes, width, height, sha256, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(
      id,
      article.id,
      filename,
      'image/jpeg',
      jpeg.length,
      SOURCE.width,
      SOURCE.height,
      createHash('sha256').update(jpeg).digest('hex'),
      Date.now(),
    );
    return filename;
  } finally {
    db.close();
  }
}

/**
 * What a variant costs by the original's size (the CPU figures in docs/features.md for
 * the Workers plans): a 320 px JPEG, median of `iterations`, the app's codec
 * and sharp, from photo-like JPEGs of 0.3 to 12 MP, and a progressive 3 MP one.
 */
export interface VariantCost {
  width: number;
  height: number;
  progressive: boolean;
  megapixels: number;
  appMs: number;
  sharpMs: number;
}

export async function variantCostBySize({ iterations = 5 } = {}): Promise<VariantCost[]> {
  const codec = await appCodec();
  const sizes = [
    { width: 640, height: 480 },
    { width: 1280, height: 960 },
    { width: 2000, height: 1500 },
    { width: 2000, height: 1500, progressive: true },
    { width: 4000, height: 3000 },
  ];
  const out: VariantCost[] = [];
  for (const { progressive = false, ...size } of sizes as { width: number; height: number; progressive?: boolean }[]) {
    const jpeg = await makeSourceJpeg(size, { progressive });
    const input = new Uint8Array(jpeg);
    const height = Math.round((size.height * 320) / size.width);
    const ours: number[] = [];
    const vips: number[] = [];
    await appVariant(codec, input, 320, height, 'jpeg');
    for (let i = 0; i < iterations; i++) {
      let t0 = performance.now();
      await appVariant(codec, input, 320, height, 'jpeg');
      ours.push(performance.now() - t0);
      t0 = performance.now();
      await sharp(jpeg).resize(320).jpeg({ quality: QUALITY }).toBuffer();
      vips.push(performance.now() - t0);
    }
    out.push({
      ...size,
      progressive,
      megapixels: (size.width * size.height) / 1e6,
      appMs: median(ours),
      sharpMs: median(vips),
    });
  }
  return out;
}

/**
 * Image serving on the running server: the original against a stored
 * variant of it. The first request makes the variant (timed), the rest read
 * it from storage; both loaded in interleaved rounds.
 */
export async function measureImageServing(
  server: { url: string; pid: number | undefined },
  imageFile: string,
  cfg: { connections: number; seconds: number; warmup: number; rounds: number },
  log: (msg: string) => void,
) {
  const originalPath = `/static/uploadedImages/${imageFile}`;
  const variantPath = `${originalPath}?w=${TARGET_WIDTH}`;
  const made = await get(server.url, variantPath);
  if (made.status !== 200) throw new Error(`GET ${variantPath}: ${made.status} ${made.body.slice(0, 300)}`);
  const cachedOnce = await get(server.url, variantPath);
  log(
    `variant made on first request in ${made.ms.toFixed(0)} ms; served from storage in ${cachedOnce.ms.toFixed(1)} ms`,
  );
  const runs = await throughputRounds(
    [
      { key: 'original', origin: server.url, paths: [originalPath], pid: server.pid },
      { key: 'variant', origin: server.url, paths: [variantPath], pid: server.pid },
    ],
    { connections: cfg.connections, seconds: cfg.seconds, warmupSeconds: cfg.warmup, rounds: cfg.rounds },
  );
  return { made, cachedOnce, runs };
}
