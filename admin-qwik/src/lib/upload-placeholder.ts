/**
 * The line an image being uploaded holds in the text until it is placed:
 * `![Uploading photo.jpg…](#uploading-<token>)`. Plain Markdown (a saved
 * draft that still holds one renders as a link to nowhere, not as a broken
 * image), found again by its token wherever the writer moved it, and its alt
 * text kept when the writer typed one over the placeholder's.
 */
export const placeholderAlt = (name: string) => `Uploading ${name}…`;
export const placeholderUrl = (token: string) => `#uploading-${token}`;

/** A new token: sorts in the order tokens were made (pending uploads are placed in that order). */
export const newUploadToken = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** A file name as a first alt text (`holiday-beach_2.jpg` → `holiday beach 2`), selected for the writer to describe. */
export function altFromFileName(name: string): string {
  return (
    name
      .replace(/\.[a-z0-9]+$/i, '')
      .replace(/[-_]+/g, ' ')
      .trim() || 'image'
  );
}

const placeholderPattern = (token: string) =>
  new RegExp(`!\\[([^\\]\\n]*)\\]\\(${placeholderUrl(token).replace(/[-#]/g, '\\$&')}\\)`);

/** Where the placeholder of `token` is in `text` (from, to, the alt text there), or null. */
export function findPlaceholder(text: string, token: string): { from: number; to: number; alt: string } | null {
  const m = placeholderPattern(token).exec(text);
  return m ? { from: m.index, to: m.index + m[0].length, alt: m[1]! } : null;
}

/**
 * `![alt](path)` for the image that replaces the placeholder (the writer's
 * alt text if they typed one), and where its alt text is in it.
 */
export function placedImage(alt: string, name: string, path: string): { text: string; alt: [number, number] } {
  const words = alt === placeholderAlt(name) ? altFromFileName(name) : alt;
  return { text: `![${words}](${path})`, alt: [2, 2 + words.length] };
}
