import type { RenderedImage } from '../../ports/html-renderer.js';
import type { LinkBase } from '../../wire/links.js';
import { IMAGE_URL_PREFIX, type Image, srcsetOf } from '../media/index.js';

/**
 * A body as it is stored: every absolute URL of our uploaded images written
 * with one of this CMS's own origins (PUBLIC_URL, the origin the request was
 * sent to) made root-relative, so that the body follows the site when it
 * moves; answers make the html's links absolute again (article-dto.ts).
 * Only our image path is touched: other links to this origin stay as typed.
 */
export function relativeImageUrls(body: string, origins: readonly string[]): string {
  let out = body;
  for (const origin of new Set(origins)) {
    if (origin === '') continue;
    const absolute = `${origin.replace(/\/+$/, '')}${IMAGE_URL_PREFIX}`;
    if (out.includes(absolute)) out = out.replaceAll(absolute, IMAGE_URL_PREFIX);
  }
  return out;
}

/** How many distinct library images one body's render looks up: the rest render as plain images. */
export const MAX_BODY_LIBRARY_IMAGES = 200;

// The server's own file names (media/blob-keys.ts IMAGE_FILENAME), as a body names them.
const NAMED =
  /\/static\/uploadedImages\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:jpg|png|webp|gif))/g;

/** The file names of our images a body names, distinct, in order, at most MAX_BODY_LIBRARY_IMAGES. */
export function imageNamesIn(body: string): string[] {
  const names = new Set<string>();
  for (const m of body.matchAll(NAMED)) {
    names.add(m[1]!);
    if (names.size >= MAX_BODY_LIBRARY_IMAGES) break;
  }
  return [...names];
}

/**
 * What the stored html shows of each library image a body names, by its
 * root-relative src: its stored size, the variant widths that can be served
 * (as the API's `srcset`: none wider than the image, none for an image over
 * the variant cap) and the original itself at its own width (with width
 * descriptors a browser never falls back to `src`, so a screen wider than
 * every variant would get an upscaled one), its alt text and caption.
 */
export async function libraryImagesOf(
  body: string,
  find: (filenames: string[]) => Promise<Image[]>,
  widths: readonly number[],
): Promise<Record<string, RenderedImage>> {
  const names = imageNamesIn(body);
  if (names.length === 0) return {};
  const relative: LinkBase = { origin: '', widths };
  const out: Record<string, RenderedImage> = {};
  for (const image of await find(names)) {
    const src = `${IMAGE_URL_PREFIX}${image.filename}`;
    const variants = srcsetOf(src, image, relative);
    const original = variants === '' || widths.includes(image.width) ? '' : `, ${src} ${image.width}w`;
    out[src] = {
      width: image.width,
      height: image.height,
      srcset: variants + original,
      alt: image.alt,
      caption: image.caption,
    };
  }
  return out;
}
