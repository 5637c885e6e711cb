import type { ArticleFormat } from '../../wire/vocabulary.js';

/** The length of a derived excerpt ("≤ 300 characters"). */
export const EXCERPT_LENGTH = 300;

/**
 * How much of a body an excerpt may look at: enough for a few hundred
 * characters of text behind heavy markup, and a bound on the work whatever
 * the body's size (a 10 MiB article costs what a 10 KiB one does).
 */
const scanWindow = (max: number) => Math.max(8192, max * 32);

/**
 * Plain text from the start of a body of any format, at most `max`
 * characters (an ellipsis included), cut at a word: tags, Markdown
 * punctuation, link targets and images removed, entities decoded,
 * whitespace folded. Feeds, structured data and list items use it.
 *
 * Cheap and linear by construction: the body is cut to a window first, then
 * read once from left to right, stopping as soon as `max` characters are
 * found. Regular expressions with nested quantifiers over the body took
 * seconds on 150,000 `[`; here every look-ahead (the `>` of a tag,
 * the `]` and `)` of a link) is an indexOf whose answer is remembered, so a
 * character is never searched twice.
 */
export function plainExcerpt(body: string, format: ArticleFormat = 'markdown', max = EXCERPT_LENGTH): string {
  const window = scanWindow(max);
  const text = plainText(body.length > window ? body.slice(0, window) : body, format, max + 1);
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  if (space > max * 0.6) cut = cut.slice(0, space);
  // Never end on the first half of a surrogate pair.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

// Tags that end a line of text when rendered: replaced by a space, inline ones by nothing.
const BLOCK_TAGS = new Set(
  'address article aside blockquote br dd div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 header hr img li main nav ol p pre section table td th tr ul'.split(
    ' ',
  ),
);
// Elements whose content is never text.
const RAW_TAGS = new Set(['script', 'style', 'template', 'svg', 'math', 'iframe', 'object', 'textarea', 'title']);

/** Where the next `ch` after `from` is, answered from memory when an earlier search already covered it. */
function finder(text: string) {
  const memo = new Map<string, { from: number; at: number }>();
  return (ch: string, from: number): number => {
    const known = memo.get(ch);
    if (known && known.from <= from && (known.at === -1 || known.at >= from)) return known.at;
    const at = text.indexOf(ch, from);
    memo.set(ch, { from, at });
    return at;
  };
}

/**
 * The whole of `body` as plain text, stopping once `limit` characters are
 * out. Exported for the linearity test, which times it without the window.
 */
export function plainText(body: string, format: ArticleFormat, limit: number): string {
  const markdown = format === 'markdown';
  const markup = format !== 'plaintext';
  const find = finder(body);
  // The text so far is `out` and then body[runStart, runEnd): characters kept
  // as they are extend the run, which is sliced once when something else
  // comes (a string per character is about 9 KiB of garbage per excerpt).
  let out = '';
  let runStart = 0;
  let runEnd = 0;
  let space = false;
  let lineStart = true;
  // A link's `](target)` to jump over once its label has been read.
  let skipAt = -1;
  let skipTo = -1;
  let lower: string | undefined;

  const flush = () => {
    if (runEnd > runStart) out += body.slice(runStart, runEnd);
    runStart = runEnd;
  };
  const separate = () => {
    if (space && out.length + runEnd - runStart > 0) {
      flush();
      out += ' ';
    }
    space = false;
    lineStart = false;
  };
  /** Text that is not the body's own characters (a decoded entity). */
  const word = (s: string) => {
    separate();
    flush();
    out += s;
  };
  /** The body's character at `at`, as it is. */
  const keep = (at: number) => {
    // One plain space between two kept characters is the space the text needs: the run goes on over it.
    if (space && at === runEnd + 1 && runEnd > runStart && body.charCodeAt(runEnd) === 32) {
      space = false;
      runEnd = at + 1;
      return;
    }
    separate();
    if (runEnd !== at) {
      flush();
      runStart = at;
    }
    runEnd = at + 1;
  };

  let i = 0;
  while (i < body.length && out.length + runEnd - runStart < limit) {
    if (i === skipAt) {
      i = skipTo;
      skipAt = -1;
      continue;
    }
    const ch = body[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === '\u00a0') {
      space = true;
      if (ch === '\n') lineStart = true;
      i++;
      continue;
    }
    if (!markup) {
      keep(i);
      i++;
      continue;
    }
    if (ch === '<') {
      const next = body.charCodeAt(i + 1);
      const tagLike = (next >= 65 && next <= 90) || (next >= 97 && next <= 122) || next === 47 || next === 33;
      const end = tagLike ? find('>', i + 1) : -1;
      if (end === -1) {
        keep(i);
        i++;
        continue;
      }
      let n = i + (next === 47 ? 2 : 1);
      let name = '';
      while (n < end && name.length < 12 && isAlnum(body.charCodeAt(n))) name += body[n++]!.toLowerCase();
      if (BLOCK_TAGS.has(name)) space = true;
      i = end + 1;
      if (next !== 47 && RAW_TAGS.has(name)) {
        lower ??= body.toLowerCase();
        const close = lower.indexOf(`</${name}`, i);
        const closeEnd = close === -1 ? -1 : find('>', close);
        i = closeEnd === -1 ? body.length : closeEnd + 1;
        space = true;
      }
      continue;
    }
    if (ch === '&') {
      // Entities are short: look no further than that for the `;`.
      let semi = i + 1;
      while (semi - i <= 10 && (isAlnum(body.charCodeAt(semi)) || body[semi] === '#')) semi++;
      if (body[semi] === ';') {
        const decoded = entity(body.slice(i + 1, semi));
        if (decoded !== null) {
          if (decoded === ' ') space = true;
          else word(decoded);
          i = semi + 1;
          continue;
        }
      }
      keep(i);
      i++;
      continue;
    }
    if (!markdown) {
      keep(i);
      i++;
      continue;
    }
    if (ch === '\\' && i + 1 < body.length && /[!-/:-@[-`{-~]/.test(body[i + 1]!)) {
      keep(i + 1);
      i += 2;
      continue;
    }
    if (ch === '!' && body[i + 1] === '[') {
      const close = find(']', i + 2);
      const paren = close !== -1 && body[close + 1] === '(' ? find(')', close + 2) : -1;
      if (paren !== -1) {
        // An image: its alt text and target are not prose.
        space = true;
        i = paren + 1;
        continue;
      }
    }
    if (ch === '[') {
      const close = find(']', i + 1);
      if (close !== -1 && body[close + 1] === '(') {
        const paren = find(')', close + 2);
        if (paren !== -1) {
          skipAt = close;
          skipTo = paren + 1;
          i++;
          continue;
        }
      }
    }
    if (ch === '*' || ch === '_' || ch === '~' || ch === '`') {
      // List bullets and emphasis: no text of their own.
      i++;
      continue;
    }
    if (ch === '#' || ch === '>' || ch === '|' || (lineStart && (ch === '-' || ch === '+') && body[i + 1] === ' ')) {
      space = true;
      i++;
      continue;
    }
    keep(i);
    i++;
  }
  flush();
  return out;
}

const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

function entity(name: string): string | null {
  if (name[0] === '#') {
    const hex = name[1] === 'x' || name[1] === 'X';
    const digits = name.slice(hex ? 2 : 1);
    if (!(hex ? /^[0-9a-fA-F]{1,6}$/ : /^[0-9]{1,7}$/).test(digits)) return null;
    const code = Number.parseInt(digits, hex ? 16 : 10);
    // NUL, surrogates and values past Unicode are not text.
    if (code === 0 || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return null;
    return String.fromCodePoint(code);
  }
  return NAMED_ENTITIES[name] ?? null;
}
