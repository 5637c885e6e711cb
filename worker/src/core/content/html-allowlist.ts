import { isSafeUrl } from './safe-url.js';

/** A library image as the html shows it: facts from its stored row, found by the src a body names. */
export interface LibraryImage {
  /** Stored pixel size: the box a browser reserves before the bytes arrive. */
  width: number;
  height: number;
  /** Root-relative `url?w=N Nw` candidates, only widths that can be served; '' when none can. */
  srcset: string;
  /** Its text alternative, used where the body gives none. */
  alt: string;
  /** Its caption; '' when it has none. */
  caption: string;
}

export interface SanitizeOptions {
  /** A further say over image sources the URL rules allow (the admin keeps its own paths: its CSP allows no others). */
  allowImage?: (src: string) => boolean;
  /** Links open in a new tab, without referrer or opener (the admin's preview must never leave the editor). */
  linksInNewTab?: boolean;
  /**
   * Images of the library by the root-relative src a body names them with:
   * each gets srcset, sizes, width, height, lazy loading, async decoding and
   * a figure with its caption (sanitize-html.ts).
   */
  libraryImages?: Readonly<Record<string, LibraryImage>>;
  /** Headings get ids made from their text (the stored html; not the admin's preview, whose page has ids of its own). */
  headingIds?: boolean;
}

export const GLOBAL_ATTRIBUTES = ['title', 'lang', 'dir'];
/** The elements kept, each with the attributes it may carry besides GLOBAL_ATTRIBUTES. */
export const ALLOWED: Record<string, readonly string[]> = {
  a: ['href'],
  abbr: [],
  b: [],
  bdi: [],
  bdo: [],
  blockquote: [],
  br: [],
  caption: [],
  cite: [],
  code: ['class'],
  col: ['span'],
  colgroup: ['span'],
  dd: [],
  del: [],
  details: ['open'],
  dfn: [],
  div: [],
  dl: [],
  dt: [],
  em: [],
  figcaption: [],
  figure: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  hr: [],
  i: [],
  img: ['src', 'alt', 'width', 'height', 'srcset', 'sizes', 'loading', 'decoding'],
  input: ['type', 'checked'],
  ins: [],
  kbd: [],
  li: ['value'],
  mark: [],
  ol: ['start', 'reversed', 'type'],
  p: [],
  pre: [],
  q: [],
  rp: [],
  rt: [],
  ruby: [],
  s: [],
  samp: [],
  small: [],
  span: [],
  strong: [],
  sub: [],
  summary: [],
  sup: [],
  table: [],
  tbody: [],
  td: ['colspan', 'rowspan', 'align', 'style'],
  tfoot: [],
  th: ['colspan', 'rowspan', 'align', 'style', 'scope'],
  thead: [],
  time: ['datetime'],
  tr: [],
  u: [],
  ul: [],
  var: [],
  wbr: [],
};
export const VOID = new Set(['br', 'col', 'hr', 'img', 'input', 'wbr']);
export const BOOLEAN = new Set(['checked', 'open', 'reversed']);
export const FOREIGN = new Set(['svg', 'math']);
/** Elements dropped with everything inside them: scripts, styles, foreign and embedded content. */
export const DROP_WITH_CONTENT = new Set([
  'applet',
  'embed',
  'frameset',
  'head',
  'iframe',
  'math',
  'noembed',
  'noframes',
  'noscript',
  'object',
  'plaintext',
  'script',
  'select',
  'style',
  'svg',
  'template',
  'textarea',
  'title',
  'xmp',
]);
/** Opening one of these ends an open paragraph, as an HTML parser would. */
export const ENDS_PARAGRAPH = new Set(
  'address blockquote details div dl figure h1 h2 h3 h4 h5 h6 hr ol p pre table ul'.split(' '),
);
/** Opening one of these ends an open element of the same name (list items, table cells). */
export const ENDS_SIBLING = new Set(['li', 'dt', 'dd', 'tr', 'td', 'th']);

const NUMBER = /^\d{1,4}$/;
const ALIGN = /^(?:left|right|center)$/i;
const TEXT_ALIGN = /^\s*text-align\s*:\s*(left|right|center)\s*;?\s*$/i;
const LANGUAGE_CLASS = /^language-[\w#+.-]{1,40}$/;
export const ATTRIBUTE_LIMIT = 32;
const SIZES = /^[a-z0-9(),.:%\s-]{1,200}$/i;
const SRCSET_CANDIDATE = /^(\S+)(?:\s+(\d{1,5}w|\d{1,2}(?:\.\d{1,3})?x))?$/;
const MAX_CANDIDATES = 16;

/**
 * A hand-written srcset, kept when every candidate is a URL the image rules
 * allow with a width or density descriptor; otherwise left out whole. A
 * comma inside a URL (a data: URL) is not told apart from a separator, so
 * such a srcset is left out too.
 */
function safeSrcset(value: string, options: SanitizeOptions): string | null {
  const candidates = value.split(',').map((c) => c.trim());
  if (candidates.length > MAX_CANDIDATES) return null;
  const kept: string[] = [];
  for (const candidate of candidates) {
    const m = SRCSET_CANDIDATE.exec(candidate);
    if (!m || !isSafeUrl(m[1]!, 'image') || !(options.allowImage?.(m[1]!) ?? true)) return null;
    kept.push(m[2] ? `${m[1]} ${m[2]}` : m[1]!);
  }
  return kept.join(', ');
}

// Quotes are escaped in text too: then `name="` appears only where an
// attribute starts, which lets answers make our root-relative links absolute
// with one linear replace (features/articles/article-dto.ts).
export const escapeText = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
export const escapeAttribute = escapeText;

/** An attribute's value as written out, or null to leave the attribute out. */
export function attributeValue(tag: string, name: string, value: string, options: SanitizeOptions): string | null {
  switch (name) {
    case 'href':
      return isSafeUrl(value, 'link') ? value.trim() : null;
    case 'src':
      return isSafeUrl(value, 'image') && (options.allowImage?.(value.trim()) ?? true) ? value.trim() : null;
    case 'width':
    case 'height':
    case 'colspan':
    case 'rowspan':
    case 'span':
    case 'start':
    case 'value':
      return NUMBER.test(value) ? value : null;
    case 'align':
      return ALIGN.test(value) ? value.toLowerCase() : null;
    case 'style': {
      // Only the alignment Markdown tables carry: CSS can overlay and hide the page.
      const align = TEXT_ALIGN.exec(value);
      return align ? `text-align:${align[1]!.toLowerCase()}` : null;
    }
    case 'class':
      return value.split(/\s+/).every((c) => c === '' || LANGUAGE_CLASS.test(c)) ? value.trim() : null;
    case 'type':
      if (tag === 'input') return value.toLowerCase() === 'checkbox' ? 'checkbox' : null;
      return /^[1aAiI]$/.test(value) ? value : null;
    case 'dir':
      return /^(?:ltr|rtl|auto)$/i.test(value) ? value.toLowerCase() : null;
    case 'lang':
      return /^[A-Za-z0-9-]{1,35}$/.test(value) ? value : null;
    case 'srcset':
      return safeSrcset(value, options);
    case 'sizes':
      // Media conditions and lengths only: no quotes, no url().
      return SIZES.test(value) ? value.trim() : null;
    case 'loading':
      return /^(?:lazy|eager)$/i.test(value) ? value.toLowerCase() : null;
    case 'decoding':
      return /^(?:async|sync|auto)$/i.test(value) ? value.toLowerCase() : null;
    case 'scope':
      return /^(?:row|col|rowgroup|colgroup)$/i.test(value) ? value.toLowerCase() : null;
    case 'checked':
    case 'open':
    case 'reversed':
      return '';
    default:
      // Plain text: title, alt, datetime.
      return value.length <= 1000 ? value : value.slice(0, 1000);
  }
}
