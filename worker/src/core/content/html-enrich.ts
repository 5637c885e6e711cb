import { freeSlug, slugify } from '../../wire/slug.js';
import { escapeAttribute, type LibraryImage } from './html-allowlist.js';

/** An element's attributes as the sanitiser keeps them: a value, or null for a boolean attribute. */
export type Attributes = [name: string, value: string | null][];

export const writeTag = (tag: string, attributes: Attributes): string =>
  `<${[tag, ...attributes.map(([n, v]) => (v === null ? n : `${n}="${escapeAttribute(v)}"`))].join(' ')}>`;

/** The attributes a library image's facts decide: the body's own values of these give way. */
const DECIDED = new Set(['width', 'height', 'srcset', 'sizes', 'loading', 'decoding']);

/** Full width on a narrow screen, never wider than the image itself. */
export const sizesFor = (width: number): string => `(max-width: ${width}px) 100vw, ${width}px`;

/**
 * An `img` of the library as a page should show it: its stored size (the
 * box is reserved before the bytes arrive, so nothing shifts), the widths
 * that can be served, loaded lazily and decoded off the main thread, its
 * alt text where the body gives none. Answers the caption its figure shows:
 * the image's own, else the title the body gave it ('' for none).
 */
export function withLibraryFacts(kept: Attributes, image: LibraryImage): { attributes: Attributes; caption: string } {
  const attributes = kept.filter(([name]) => !DECIDED.has(name));
  const alt = attributes.find(([name]) => name === 'alt');
  if (!alt) attributes.push(['alt', image.alt]);
  else if (alt[1] === '' || alt[1] === null) alt[1] = image.alt;
  attributes.push(['width', String(image.width)], ['height', String(image.height)]);
  if (image.srcset !== '') attributes.push(['srcset', image.srcset], ['sizes', sizesFor(image.width)]);
  attributes.push(['loading', 'lazy'], ['decoding', 'async']);
  const title = attributes.find(([name]) => name === 'title')?.[1] ?? '';
  return { attributes, caption: image.caption.trim() !== '' ? image.caption : title };
}

/** How much of a heading's text its id is made from. */
const HEADING_TEXT = 200;
const HEADING_ID_MAX = 80;

/**
 * Ids for headings, from their text: slugged (the slug maker of articles),
 * `section` for text with no Latin letter or digit, `-2`, `-3`… for a
 * repeat, so every id in one body is distinct and the same text keeps the
 * same id from one render to the next. Nested headings: the outer one only.
 */
export function headingIds() {
  const used = new Set<string>();
  let current: { at: number; depth: number; text: string } | undefined;
  return {
    /** A heading was written at `out[at]`, `depth` elements deep (itself included). */
    opened(at: number, depth: number): void {
      if (!current) current = { at, depth, text: '' };
    },
    text(text: string): void {
      if (current && current.text.length < HEADING_TEXT) current.text += text.slice(0, HEADING_TEXT);
    },
    /** After an element closed: the heading's id goes into its open tag once the heading itself has closed. */
    closed(depth: number, out: string[]): void {
      if (!current || depth >= current.depth) return;
      const id = freeSlug(slugify(current.text, HEADING_ID_MAX, 'section'), used, HEADING_ID_MAX);
      used.add(id);
      // `<hN` is the tag's first three characters; the id goes right after.
      out[current.at] = `${out[current.at]!.slice(0, 3)} id="${id}"${out[current.at]!.slice(3)}`;
      current = undefined;
    },
  };
}
