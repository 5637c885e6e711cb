import { describeSize, shrinkPlan } from './image-fit';

// Enough for any header: a JPEG's frame size follows its EXIF (≤ 64 KiB per segment, a few segments).
const HEADER_BYTES = 1024 * 1024;

/**
 * The one pre-upload step for every image the editor sends (the Images
 * card, and images dropped, pasted or picked into the text): a JPEG, PNG or
 * WebP larger than SHRINK_MAX_SIDE is shrunk in this browser when `on`
 * (lib/image-shrink.ts, WebAssembly, imported only then). `onShrinking`
 * hears the plan before the work starts. Returns the file to send and what
 * to say about its sizes (null: small enough, nothing to say). A failure to
 * shrink sends the original, and says so.
 */
export async function shrinkBeforeUpload(
  file: File,
  on: boolean,
  onShrinking?: (sizes: string) => void,
): Promise<{ file: File; sizes: string | null }> {
  const plan = shrinkPlan(new Uint8Array(await file.slice(0, HEADER_BYTES).arrayBuffer()));
  if (!plan) return { file, sizes: null };
  const from = describeSize(plan.from, file.size);
  if (!on) return { file, sizes: `${from}, uploaded as is (shrinking is off)` };
  onShrinking?.(`${from} → shrinking to ${plan.to.width}×${plan.to.height}…`);
  try {
    const { shrinkImage } = await import('./image-shrink');
    const shrunk = await shrinkImage(file, plan);
    return { file: shrunk.file, sizes: `${from} → ${describeSize(shrunk.size, shrunk.file.size)}` };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { file, sizes: `${from}, could not be shrunk here (${why}): uploaded as is` };
  }
}
