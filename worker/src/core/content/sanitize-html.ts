import { type TokenizerCallbacks as Callbacks, QuoteType, Tokenizer } from 'htmlparser2';
import { isSafeUrl } from './safe-url.js';

export interface SanitizeOptions {
  /** A further say over image sources the URL rules allow (the admin keeps its own paths: its CSP allows no others). */
  allowImage?: (src: string) => boolean;
  /** Links open in a new tab, without referrer or opener (the admin's preview must never leave the editor). */
  linksInNewTab?: boolean;
}

/** Nesting deeper than this is not written: it bounds the work per closing tag. */
const MAX_DEPTH = 100;

const GLOBAL_ATTRIBUTES = ['title', 'lang', 'dir'];
/** The elements kept, each with the attributes it may carry besides GLOBAL_ATTRIBUTES. */
const ALLOWED: Record<string, readonly string[]> = {
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
  img: ['src', 'alt', 'width', 'height'],
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
const VOID = new Set(['br', 'col', 'hr', 'img', 'input', 'wbr']);
const BOOLEAN = new Set(['checked', 'open', 'reversed']);
const FOREIGN = new Set(['svg', 'math']);
/** Elements dropped with everything inside them: scripts, styles, foreign and embedded content. */
const DROP_WITH_CONTENT = new Set([
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
const ENDS_PARAGRAPH = new Set(
  'address blockquote details div dl figure h1 h2 h3 h4 h5 h6 hr ol p pre table ul'.split(' '),
);
/** Opening one of these ends an open element of the same name (list items, table cells). */
const ENDS_SIBLING = new Set(['li', 'dt', 'dd', 'tr', 'td', 'th']);

const NUMBER = /^\d{1,4}$/;
const ALIGN = /^(?:left|right|center)$/i;
const TEXT_ALIGN = /^\s*text-align\s*:\s*(left|right|center)\s*;?\s*$/i;
const LANGUAGE_CLASS = /^language-[\w#+.-]{1,40}$/;
const ATTRIBUTE_LIMIT = 32;

// Quotes are escaped in text too: then `name="` appears only where an
// attribute starts, which lets answers make our root-relative links absolute
// with one linear replace (features/articles/article-dto.ts).
const escapeText = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const escapeAttribute = escapeText;

/** An attribute's value as written out, or null to leave the attribute out. */
function attributeValue(tag: string, name: string, value: string, options: SanitizeOptions): string | null {
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
 */
export function sanitizeHtml(html: string, options: SanitizeOptions = {}): string {
  const out: string[] = [];
  const open: string[] = [];
  let tag = '';
  let attributes: [string, string][] = [];
  let attributeName = '';
  let attributeValueText = '';
  // Inside an element dropped with its content: its name and how deep.
  let dropping = '';
  let dropDepth = 0;

  const closeTop = () => out.push(`</${open.pop()}>`);

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
    const kept: string[] = [];
    for (const [name, raw] of attributes) {
      if (!allowed.includes(name) && !GLOBAL_ATTRIBUTES.includes(name)) continue;
      const value = attributeValue(tag, name, raw, options);
      if (value === null) continue;
      kept.push(BOOLEAN.has(name) ? name : `${name}="${escapeAttribute(value)}"`);
    }
    const has = (name: string) => kept.some((k) => k === name || k.startsWith(`${name}=`));
    if (tag === 'a' && !has('href')) return;
    if (tag === 'img' && !has('src')) return;
    if (tag === 'input') {
      if (!has('type')) return;
      kept.push('disabled');
    }
    if (tag === 'a' && options.linksInNewTab) kept.push('target="_blank"', 'rel="noopener noreferrer nofollow"');
    if (ENDS_SIBLING.has(tag) && open[open.length - 1] === tag) closeTop();
    if (ENDS_PARAGRAPH.has(tag) && open[open.length - 1] === 'p') closeTop();
    if (VOID.has(tag)) {
      out.push(`<${[tag, ...kept].join(' ')}>`);
      return;
    }
    if (open.length >= MAX_DEPTH) return;
    out.push(`<${[tag, ...kept].join(' ')}>`);
    open.push(tag);
  };

  const callbacks: Callbacks = {
    ontext(start, end) {
      if (!dropping) out.push(escapeText(html.slice(start, end).replaceAll('\u0000', '')));
    },
    ontextentity(codepoint) {
      if (!dropping && codepoint !== 0) out.push(escapeText(String.fromCodePoint(codepoint)));
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
