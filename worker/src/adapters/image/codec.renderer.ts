import type { ImageCodec, RasterImage, RenderJob, VariantRenderer } from '../../ports/image-codec.js';

/**
 * The pipeline on a codec, in the calling thread: decode (at a reduced scale
 * where the codec can), resize, turn, encode, and free every intermediate
 * image whatever happens. Workers run it in the request; on Node it runs
 * inside a worker thread (render.worker.ts).
 */
export async function renderWithCodec(codec: ImageCodec, job: RenderJob): Promise<Uint8Array> {
  const owned: RasterImage[] = [];
  try {
    const decoded = codec.decode(job.bytes, { width: job.width, height: job.height });
    owned.push(decoded);
    let current = decoded;
    if (job.width !== decoded.width || job.height !== decoded.height) {
      current = codec.resize(decoded, job.width, job.height);
      owned.push(current);
    }
    if (job.orientation !== 1) {
      current = codec.orient(current, job.orientation);
      owned.push(current);
    }
    return await codec.encode(current, job.format, job.quality);
  } finally {
    for (const image of owned) image.free();
  }
}

/**
 * No queue: each job starts at once, in its own request (so its ticket has
 * nothing to wait for). `decodeBudget` bounds, from the header, what a job
 * may cost the request's memory and CPU.
 */
export function createCodecRenderer(codec: ImageCodec, options: { decodeBudget?: number } = {}): VariantRenderer {
  return {
    lossyWebp: codec.lossyWebp,
    decodeBudget: options.decodeBudget,
    render: (job) => renderWithCodec(codec, job),
  };
}
