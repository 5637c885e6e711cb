import { initPhoton } from '@cf-wasm/photon/others';
import photonWasmUrl from '@cf-wasm/photon/photon.wasm?url';
import webpWasmUrl from '@jsquash/webp/codec/enc/webp_enc.wasm?url';
import { createPhotonImageCodec } from '../../../worker/src/codecs/image/photon.image-codec';
import { createWebpEncoder } from '../../../worker/src/codecs/image/webp.encoder';
import { readJpegOrientation } from '../../../worker/src/core/media/exif-orientation';
import type { ShrinkPlan, Size } from './image-fit';

/**
 * Shrinks an image in the browser with the server's own codec (photon, Rust
 * → WebAssembly; lossy WebP through libwebp, as on the server). This module
 * is only ever imported dynamically, when a large image is about to be
 * uploaded with shrinking on: its glue and the two .wasm files (emitted by
 * vite under /build) are fetched then, never on other pages. The CSP's
 * 'wasm-unsafe-eval' is what lets them compile.
 *
 * A JPEG's EXIF orientation is applied here, because the new file carries no
 * EXIF: the server would otherwise show it sideways.
 */
const QUALITY = 85;

let photonReady: Promise<unknown> | undefined;
const ensurePhoton = () => {
  photonReady ??= initPhoton(fetch(photonWasmUrl)).catch((err: unknown) => {
    photonReady = undefined;
    throw err;
  });
  return photonReady;
};

const codec = createPhotonImageCodec(createWebpEncoder(() => WebAssembly.compileStreaming(fetch(webpWasmUrl))));

const FORMAT = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp' } as const;

export async function shrinkImage(file: File, plan: ShrinkPlan): Promise<{ file: File; size: Size }> {
  await ensurePhoton();
  const bytes = new Uint8Array(await file.arrayBuffer());
  const decoded = codec.decode(bytes);
  const resized = codec.resize(decoded, plan.to.width, plan.to.height);
  decoded.free();
  const orientation = plan.contentType === 'image/jpeg' ? readJpegOrientation(bytes) : 1;
  const upright = orientation === 1 ? resized : codec.orient(resized, orientation);
  if (upright !== resized) resized.free();
  try {
    const out = await codec.encode(upright, FORMAT[plan.contentType], QUALITY);
    const size = { width: upright.width, height: upright.height };
    return {
      file: new File([out as Uint8Array<ArrayBuffer>], file.name, {
        type: plan.contentType,
        lastModified: file.lastModified,
      }),
      size,
    };
  } finally {
    upright.free();
  }
}
