import type { WebPModule } from '@jsquash/webp/codec/enc/webp_enc.js';
import moduleFactory from '@jsquash/webp/codec/enc/webp_enc.js';
import { defaultOptions } from '@jsquash/webp/meta.js';

/**
 * Lossy WebP with libwebp (Squoosh's build, via @jsquash/webp): photon's own
 * WebP writer is lossless only. The caller supplies the compiled wasm, since
 * each target gets it its own way (a module import on Workers, the file on
 * Node); the encoder glue never fetches or reads anything itself.
 */
export type WebpEncoder = (rgba: Uint8Array, width: number, height: number, quality: number) => Promise<Uint8Array>;

export function createWebpEncoder(loadWasm: () => Promise<WebAssembly.Module> | WebAssembly.Module): WebpEncoder {
  let ready: Promise<WebPModule> | undefined;
  const init = async (): Promise<WebPModule> => {
    const wasm = await loadWasm();
    return moduleFactory({
      noInitialRun: true,
      instantiateWasm(imports: WebAssembly.Imports, callback: (instance: WebAssembly.Instance) => void) {
        const instance = new WebAssembly.Instance(wasm, imports);
        callback(instance);
        return instance.exports;
      },
    } as Parameters<typeof moduleFactory>[0]);
  };
  return async (rgba, width, height, quality) => {
    ready ??= init().catch((err) => {
      ready = undefined; // a later call may try again
      throw err;
    });
    const module = await ready;
    const out = module.encode(rgba as Uint8Array<ArrayBuffer>, width, height, { ...defaultOptions, quality });
    if (!out) throw new Error('WebP encoding failed');
    return new Uint8Array(out);
  };
}
