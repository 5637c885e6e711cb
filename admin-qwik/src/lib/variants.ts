/**
 * Thumbnails from the server's image variants (`?w=` one of the widths the
 * server makes, `/v1/media/variants` lists them as `presets`), so a grid of
 * phone photos loads a few kilobytes per tile instead of the originals.
 */

/** A tile is at most about 12rem wide; three device pixels per CSS pixel is the most worth sending. */
const MAX_TILE_PIXELS = 640;

export const TILE_SIZES = '(max-width: 48rem) calc(50vw - 2rem), 12rem';

export interface TileImage {
  url: string;
  width: number;
}

const variant = (url: string, w: number) => `${url}?w=${w}&format=webp`;

/**
 * `src` (the smallest useful variant) and `srcset` for a tile: the preset
 * widths up to the original's (a larger width would only repeat it) and
 * up to what a tile can use. Null when the server makes no variants.
 */
export function tileSources(image: TileImage, presets: readonly number[]): { src: string; srcset: string } | null {
  const sorted = [...presets].filter((w) => Number.isInteger(w) && w > 0).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const useful = sorted.filter((w) => w <= Math.min(image.width, MAX_TILE_PIXELS));
  const widths = useful.length > 0 ? useful : [sorted[0]!];
  return {
    src: variant(image.url, widths[0]!),
    srcset: widths.map((w) => `${variant(image.url, w)} ${w}w`).join(', '),
  };
}
