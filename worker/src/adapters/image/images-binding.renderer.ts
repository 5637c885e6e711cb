import { DomainError } from '../../core/domain/errors.js';
import type { RenderJob, VariantRenderer } from '../../ports/image-codec.js';
import type { Logger } from '../../ports/runtime.js';

/**
 * Variants made by Cloudflare's Images binding (`[images]` in wrangler.toml,
 * `env.IMAGES`): the decode, resize and encode run in Cloudflare's image
 * service, not on the Worker's CPU, so a plan whose CPU limit cannot decode
 * a photo (Workers Free: 10 ms) still serves every variant. The variants
 * service stores what it answers, as with photon: each variant is made once.
 *
 * The service turns an image upright from its EXIF orientation before any
 * transform (as `wrangler dev`'s local mode does: sharp with autoOrient), so
 * the size asked for is the upright one; the job's is as stored.
 */
export function createImagesBindingRenderer(images: ImagesBinding, logger: Logger): VariantRenderer {
  return {
    lossyWebp: true,
    // No decode budget: the pixels are not decoded in the request.
    async render(job: RenderJob): Promise<Uint8Array> {
      const turned = job.orientation >= 5;
      const [width, height] = turned ? [job.height, job.width] : [job.width, job.height];
      try {
        const result = await images
          .input(new Blob([job.bytes as Uint8Array<ArrayBuffer>]).stream())
          // The planned size keeps the aspect ratio already: `squeeze` makes exactly it (no rounding of its own).
          .transform({ width, height, fit: 'squeeze' })
          .output({ format: `image/${job.format}`, quality: job.quality });
        return new Uint8Array(await new Response(result.image()).arrayBuffer());
      } catch (err) {
        if (imageFault(err)) throw err;
        // The cause goes to the log; the client learns only that it may retry.
        logger.error('the Images binding failed', err);
        throw new DomainError('unavailable', 'The image service is unavailable: try again later');
      }
    },
  };
}

/**
 * Cloudflare's codes that are about the bytes themselves: 9412 (not an
 * image), 9413 (over 100 megapixels), 9520 (a format it does not read).
 * These bytes cannot be made into a variant, and the variants service
 * remembers that. Everything else is no fault of the image and must not
 * mark it: 9422 (the account's transformation quota is spent) and 9432
 * (the account's Images plan) are the account's, 9523 and the other 95xx
 * the service's own, 9402 may be a dropped connection, and a failure with
 * no code (the service down, local mode without sharp) is the transport.
 * A 503 that the next request retries.
 */
const IMAGE_FAULTS: ReadonlySet<number> = new Set([9412, 9413, 9520]);

function imageFault(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' && IMAGE_FAULTS.has(code);
}
