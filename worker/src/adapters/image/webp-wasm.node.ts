import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/**
 * libwebp's encoder wasm from node_modules, compiled on first use. Resolved
 * with require.resolve from this module (or the server bundle), so it works
 * from the repository and from dist/node alike.
 */
export async function loadWebpEncoderWasm(): Promise<WebAssembly.Module> {
  const path = createRequire(import.meta.url).resolve('@jsquash/webp/codec/enc/webp_enc.wasm');
  return WebAssembly.compile(await readFile(path));
}
