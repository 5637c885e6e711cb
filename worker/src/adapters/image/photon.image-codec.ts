// The codec lives in codecs/image/, which the admin builds too (it shrinks large images before upload).
export { createPhotonImageCodec } from '../../codecs/image/photon.image-codec.js';
