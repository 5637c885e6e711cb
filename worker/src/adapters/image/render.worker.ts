import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { PhotonImage } from '@cf-wasm/photon';
import type { RenderJob } from '../../ports/image-codec.js';
import { lowerThisThreadsPriority } from '../runtime/thread-priority.js';
import { renderWithCodec } from './codec.renderer.js';
import { createPhotonImageCodec } from './photon.image-codec.js';
import { createWebpEncoder } from './webp.encoder.js';
import { loadWebpEncoderWasm } from './webp-wasm.node.js';

/**
 * A render thread on Node (thread-pool.renderer.ts starts it): the same
 * pipeline Workers run in the request, here off the event loop. After each
 * job it says how much memory outside the JS heap its isolate holds (wasm
 * memory counts there), so that the pool can replace a thread whose wasm memory grew:
 * it never shrinks, and terminating the thread is the only way to give it back.
 */
export interface RenderRequest {
  id: number;
  job: RenderJob;
}

export type RenderReply =
  | { type: 'ready' }
  | { type: 'done'; id: number; bytes: Uint8Array; heldBytes: number }
  | { type: 'failed'; id: number; message: string; heldBytes: number };

if (!parentPort) throw new Error('render.worker runs as a worker thread');
const port = parentPort;

lowerThisThreadsPriority();
const codec = createPhotonImageCodec(createWebpEncoder(loadWebpEncoderWasm));

/** Wasm memories and array buffers: what stays allocated after a job (unlike JS garbage, which is collected). */
const held = () => (getHeapStatistics() as { external_memory?: number }).external_memory ?? 0;

port.on('message', async ({ id, job }: RenderRequest) => {
  let reply: RenderReply;
  try {
    const bytes = await renderWithCodec(codec, job);
    reply = { type: 'done', id, bytes, heldBytes: held() };
    port.postMessage(reply, [bytes.buffer as ArrayBuffer]);
  } catch (err) {
    reply = { type: 'failed', id, message: err instanceof Error ? err.message : String(err), heldBytes: held() };
    port.postMessage(reply);
  }
});
/**
 * Two tiny renders (JPEG, then WebP) before saying ready. A fresh thread's first job otherwise
 * pays for warming up the decoders and loading libwebp, ten times a small render's time, and
 * that would count against the pool's time limit, which is there to stop runaway renders, not
 * cold threads. A failure here is left to the first real job to report.
 */
async function warmUp(): Promise<void> {
  const side = 64;
  const jpeg = new PhotonImage(new Uint8Array(side * side * 4).fill(128), side, side).get_bytes_jpeg(80);
  for (const format of ['jpeg', 'webp'] as const) {
    await renderWithCodec(codec, { bytes: jpeg, width: 16, height: 16, orientation: 1, format, quality: 80 });
  }
}
warmUp().then(
  () => port.postMessage({ type: 'ready' } satisfies RenderReply),
  () => port.postMessage({ type: 'ready' } satisfies RenderReply),
);
