export { createWebpEncoder, type WebpEncoder } from '../../codecs/image/webp.encoder.js';
