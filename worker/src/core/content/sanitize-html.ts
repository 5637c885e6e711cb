import { type TokenizerCallbacks as Callbacks, QuoteType, Tokenizer } from 'htmlparser2';
import {
  ALLOWED,
  ATTRIBUTE_LIMIT,
  attributeValue,
  BOOLEAN,
  DROP_WITH_CONTENT,
  ENDS_PARAGRAPH,
  ENDS_SIBLING,
  escapeText,
  FOREIGN,
  GLOBAL_ATTRIBUTES,
  type SanitizeOptions,
  VOID,
} from './html-allowlist.js';
import { type Attributes, headingIds, withLibraryFacts, writeTag } from './html-enrich.js';

export type { LibraryImage, SanitizeOptions } from './html-allowlist.js';

/** Nesting deeper than this is not written: it bounds the work per closing tag. */
const MAX_DEPTH = 100;
const HEADING = /^h[1-6]$/;
/** Where a figure may be written around an image: places that hold flow content. */
const FLOW_PARENTS = new Set(['blockquote', 'dd', 'details', 'div', 'li', 'td', 'th']);

/**
 * HTML reduced to an allowlist of elements and attributes, without a DOM
 * (workerd has none) and in one pass over htmlparser2's tokenizer.
 *
 * The output is written by this function alone from the tokens: every text
 * and attribute value is escaped again, comments and doctypes go, tags
 * outside the allowlist go (scripts, styles, frames, SVG and MathML with
 * their content), attributes outside it go (every `on…` handler, `style`
 * but a table cell's alignment), and URLs must pass isSafeUrl. Raw-text
 * elements and foreign content never reach the output, so a browser parses
 * it into exactly the elements written here: no markup can hide in text or
 * attributes and come back to life (mutation XSS).
 *
 * Linear: htmlparser2's own tree builder searches its stack of open
 * elements on every tag (quadratic in nesting); this keeps its own stack,
 * at most MAX_DEPTH deep.
 *
 * With `libraryImages`, an image of the library gets its facts
 * (html-enrich.ts) and, when it has a caption, a figure: the paragraph it
 * stands alone in becomes the figure (a figure cannot sit in a paragraph),
 * or one is written around it where flow content may stand; inside text it
 * stays a plain image. With `headingIds`, headings get ids from their text.
 */
export function sanitizeHtml(html: string, options: SanitizeOptions = {}): string {
  const out: string[] = [];
  const open: string[] = [];
  // Beside each open element: where its open tag is in `out`, and what closes it when not `</name>`.
  const openAt: number[] = [];
  const closers: (string | undefined)[] = [];
  const headings = options.headingIds ? headingIds() : undefined;
  let tag = '';
  let attributes: [string, string][] = [];
  let attributeName = '';
  let attributeValueText = '';
  // Inside an element dropped with its content: its name and how deep.
  let dropping = '';
  let dropDepth = 0;

  const closeTop = () => {
    const name = open.pop();
    openAt.pop();
    out.push(closers.pop() ?? `</${name}>`);
    headings?.closed(open.length, out);
  };

  /** An image with a caption: a figure where one may stand, else false (the image is written plainly). */
  const writeFigure = (img: string, caption: string): boolean => {
    const top = open.length - 1;
    const ending = `<figcaption>${escapeText(caption)}</figcaption></figure>`;
    if (
      open[top] === 'p' &&
      out.length - openAt[top]! <= 4 &&
      out
        .slice(openAt[top]! + 1)
        .join('')
        .trim() === ''
    ) {
      out[openAt[top]!] = '<figure>';
      closers[top] = ending;
      out.push(img);
      return true;
    }
    if (top !== -1 && !FLOW_PARENTS.has(open[top]!)) return false;
    out.push('<figure>', img, ending);
    return true;
  };

  const writeOpenTag = (selfClosing: boolean) => {
    // Only SVG and MathML elements (and void ones) close themselves: `<script/>` opens a script.
    const closed = VOID.has(tag) || (selfClosing && FOREIGN.has(tag));
    if (dropping) {
      if (tag === dropping && !closed) dropDepth++;
      return;
    }
    if (DROP_WITH_CONTENT.has(tag)) {
      if (!closed) {
        dropping = tag;
        dropDepth = 1;
      }
      return;
    }
    const allowed = ALLOWED[tag];
    if (!allowed) return;
    const kept: Attributes = [];
    for (const [name, raw] of attributes) {
      if (!allowed.includes(name) && !GLOBAL_ATTRIBUTES.includes(name)) continue;
      const value = attributeValue(tag, name, raw, options);
      if (value === null) continue;
      kept.push([name, BOOLEAN.has(name) ? null : value]);
    }
    const keptValue = (name: string) => kept.find(([n]) => n === name)?.[1];
    if (tag === 'a' && keptValue('href') === undefined) return;
    if (tag === 'input') {
      if (keptValue('type') === undefined) return;
      kept.push(['disabled', null]);
    }
    if (tag === 'a' && options.linksInNewTab) kept.push(['target', '_blank'], ['rel', 'noopener noreferrer nofollow']);
    if (ENDS_SIBLING.has(tag) && open[open.length - 1] === tag) closeTop();
    if (ENDS_PARAGRAPH.has(tag) && open[open.length - 1] === 'p') closeTop();
    if (tag === 'img') {
      const src = keptValue('src');
      if (!src) return;
      const library = options.libraryImages;
      const image = library && Object.hasOwn(library, src) ? library[src] : undefined;
      if (!image) {
        out.push(writeTag(tag, kept));
        return;
      }
      const enriched = withLibraryFacts(kept, image);
      const img = writeTag(tag, enriched.attributes);
      if (enriched.caption === '' || !writeFigure(img, enriched.caption)) out.push(img);
      return;
    }
    if (VOID.has(tag)) {
      out.push(writeTag(tag, kept));
      return;
    }
    if (open.length >= MAX_DEPTH) return;
    out.push(writeTag(tag, kept));
    open.push(tag);
    openAt.push(out.length - 1);
    closers.push(undefined);
    if (HEADING.test(tag)) headings?.opened(out.length - 1, open.length);
  };

  const callbacks: Callbacks = {
    ontext(start, end) {
      if (dropping) return;
      const text = html.slice(start, end).replaceAll('\u0000', '');
      headings?.text(text);
      out.push(escapeText(text));
    },
    ontextentity(codepoint) {
      if (dropping || codepoint === 0) return;
      const text = String.fromCodePoint(codepoint);
      headings?.text(text);
      out.push(escapeText(text));
    },
    onopentagname(start, end) {
      tag = html.slice(start, end).toLowerCase();
      attributes = [];
    },
    onattribname(start, end) {
      attributeName = html.slice(start, end).toLowerCase();
      attributeValueText = '';
    },
    onattribdata(start, end) {
      attributeValueText += html.slice(start, end);
    },
    onattribentity(codepoint) {
      attributeValueText += String.fromCodePoint(codepoint);
    },
    onattribend(quote) {
      const value = quote === QuoteType.NoValue ? '' : attributeValueText;
      // The first of duplicate attributes wins, as in a browser.
      if (attributes.length < ATTRIBUTE_LIMIT && !attributes.some(([n]) => n === attributeName)) {
        attributes.push([attributeName, value]);
      }
    },
    onopentagend() {
      writeOpenTag(false);
    },
    onselfclosingtag() {
      writeOpenTag(true);
    },
    onclosetag(start, end) {
      const name = html.slice(start, end).toLowerCase();
      if (dropping) {
        if (name === dropping && --dropDepth === 0) dropping = '';
        return;
      }
      const at = open.lastIndexOf(name);
      if (at === -1) return;
      while (open.length > at) closeTop();
    },
    oncomment() {},
    oncdata() {},
    ondeclaration() {},
    onprocessinginstruction() {},
    onend() {},
    isInForeignContext: () => false,
  };

  const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
  while (open.length > 0) closeTop();
  return out.join('');
}
