import { PhotonImage, resize, SamplingFilter } from '@cf-wasm/photon';
import type { EncodeFormat, ImageCodec, Orientation, RasterImage } from '../../ports/image-codec.js';
import { JpegLimitError } from './jpeg/bit-reader.js';
import { decodeJpegScaled } from './jpeg/decode-scaled.js';
import type { WebpEncoder } from './webp.encoder.js';

/**
 * The codec on photon. The package picks its build by export condition:
 * `workerd` imports the .wasm as a module (wrangler bundles it), `node`
 * inlines it. Photon decodes JPEG, PNG, GIF (first frame) and WebP, and
 * writes JPEG and PNG; its WebP writer is lossless only (~16× larger), so
 * WebP goes to libwebp when the wiring passes an encoder. A JPEG wanted at
 * half its size or less is decoded at that size by our own DCT-scaling
 * decoder (./jpeg/), which skips most of photon's full-size decode and resize.
 */
class PhotonRaster implements RasterImage {
  constructor(readonly photon: PhotonImage) {}
  get width() {
    return this.photon.get_width();
  }
  get height() {
    return this.photon.get_height();
  }
  free() {
    this.photon.free();
  }
}

const photonOf = (image: RasterImage): PhotonImage => {
  if (!(image instanceof PhotonRaster)) throw new Error('not an image of this codec');
  return image.photon;
};

/**
 * Pixel moves for EXIF orientations, done on the raw RGBA of the already
 * resized image (small, so cheap): for each output pixel, where it comes from.
 */
function reorient(src: Uint8Array, w: number, h: number, orientation: Orientation) {
  const swap = orientation >= 5;
  const ow = swap ? h : w;
  const oh = swap ? w : h;
  const out = new Uint8Array(src.length);
  const view32In = new Uint32Array(src.buffer, src.byteOffset, w * h);
  const view32Out = new Uint32Array(out.buffer, 0, ow * oh);
  for (let y = 0; y < oh; y++) {
    for (let x = 0; x < ow; x++) {
      let sx: number;
      let sy: number;
      switch (orientation) {
        case 2:
          sx = w - 1 - x;
          sy = y;
          break; // mirrored
        case 3:
          sx = w - 1 - x;
          sy = h - 1 - y;
          break; // upside down
        case 4:
          sx = x;
          sy = h - 1 - y;
          break; // flipped
        case 5:
          sx = y;
          sy = x;
          break; // transposed
        case 6:
          sx = y;
          sy = h - 1 - x;
          break; // needs 90° clockwise
        case 7:
          sx = w - 1 - y;
          sy = h - 1 - x;
          break; // transversed
        case 8:
          sx = w - 1 - y;
          sy = x;
          break; // needs 90° anticlockwise
        default:
          sx = x;
          sy = y;
      }
      view32Out[y * ow + x] = view32In[sy * w + sx]!;
    }
  }
  return { pixels: out, width: ow, height: oh };
}

/**
 * The reduced decode, or null to let photon decode the whole picture: for
 * kinds the fast decoder leaves alone, and for data it finds damaged
 * (photon may still read it, and its failure is what the caller handles).
 * A file over a limit (a scan flood) is refused: photon's work grows the same way.
 */
function reducedJpeg(bytes: Uint8Array, width: number, height: number) {
  try {
    return decodeJpegScaled(bytes, width, height);
  } catch (err) {
    if (err instanceof JpegLimitError) throw err;
    return null;
  }
}

export function createPhotonImageCodec(webp?: WebpEncoder): ImageCodec {
  return {
    lossyWebp: webp !== undefined,
    decode(bytes, atLeast) {
      if (atLeast && bytes[0] === 0xff && bytes[1] === 0xd8) {
        const scaled = reducedJpeg(bytes, atLeast.width, atLeast.height);
        if (scaled) return new PhotonRaster(new PhotonImage(scaled.rgba, scaled.width, scaled.height));
      }
      return new PhotonRaster(PhotonImage.new_from_byteslice(bytes));
    },
    // Triangle (bilinear) is several times faster than Lanczos3 in wasm and
    // looks the same at thumbnail sizes (npm run bench compares it with sharp).
    resize: (image, width, height) => new PhotonRaster(resize(photonOf(image), width, height, SamplingFilter.Triangle)),
    orient(image, orientation) {
      const photon = photonOf(image);
      const raw = photon.get_raw_pixels();
      const { pixels, width, height } =
        orientation === 1
          ? { pixels: raw, width: image.width, height: image.height }
          : reorient(raw, image.width, image.height, orientation);
      return new PhotonRaster(new PhotonImage(pixels, width, height));
    },
    async encode(image, format: EncodeFormat, quality) {
      const photon = photonOf(image);
      if (format === 'jpeg') return photon.get_bytes_jpeg(quality);
      if (format === 'png') return photon.get_bytes();
      if (!webp) throw new Error('no lossy WebP encoder');
      return webp(photon.get_raw_pixels(), image.width, image.height, quality);
    },
  };
}
