import webpEncoderWasm from '@jsquash/webp/codec/enc/webp_enc.wasm';

/** On Workers, wrangler uploads the encoder wasm beside the script and imports it compiled. */
export const workersWebpEncoderWasm = (): WebAssembly.Module => webpEncoderWasm;
