import { createHash } from 'node:crypto';

/**
 * Makes Qwik City's static HTML run under a script-src without
 * 'unsafe-inline' (see ../csp.ts), and checks that it does.
 *
 * Qwik's SSG output inlines executable scripts: the bundle-graph/preloader
 * bootstrap, the `document["qFuncs_…"]` table (a <script q:func> without a
 * type), `window.qwikevents.push(…)`, the idle preload. Each is moved into a
 * content-addressed file and replaced, in place, by <script src>. Data blocks
 * (type="qwik/json") stay inline: the browser never executes them. Empty
 * scripts stay too: Qwik hangs document events on them (on-document:qinit)
 * and the browser runs nothing, so the CSP is not involved.
 *
 * The HTML is machine-written by Qwik, so a small lexer is enough; as a
 * backstop the check compares its script count with a plain count of
 * "<script" in the file, so a tag the lexer misread fails the build instead
 * of slipping through.
 */

const ATTR_SRC = String.raw`\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>\x60]+))?`;
const TOKEN = new RegExp(
  [
    String.raw`<!--[\s\S]*?-->`,
    String.raw`<script((?:${ATTR_SRC})*)\s*>([\s\S]*?)</script\s*>`,
    String.raw`<style\b(?:${ATTR_SRC})*\s*>[\s\S]*?</style\s*>`,
    String.raw`<([a-zA-Z][a-zA-Z0-9:-]*)((?:${ATTR_SRC})*)\s*/?>`,
  ].join('|'),
  'gi',
);
const ATTR = /\s+([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** JavaScript MIME types (HTML standard): a script with one of these is classic and runs. */
const JS_TYPES = new Set([
  'application/ecmascript',
  'application/javascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
]);

/** Inline script types the CSP governs but that cannot be moved to a file. */
const UNMOVABLE_TYPES = new Set(['importmap', 'speculationrules']);

/** Elements whose URL attributes load subresources (which the CSP restricts to 'self'). */
const SUBRESOURCE_TAGS = new Set([
  'script',
  'link',
  'img',
  'iframe',
  'frame',
  'embed',
  'object',
  'source',
  'audio',
  'video',
  'track',
  'image',
  'use',
]);
const URL_ATTRS = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'xlink:href',
  'data',
  'poster',
  'cite',
  'background',
]);

function decodeEntities(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(parseInt(dec, 10)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&colon;/gi, ':')
    .replace(/&tab;/gi, '\t')
    .replace(/&newline;/gi, '\n')
    .replace(/&amp;/g, '&');
}

/** Attributes in source order: `{ name (lower case), raw (as written), value (decoded) }`. */
export interface Attribute {
  name: string;
  raw: string;
  value: string | undefined;
}

export function parseAttributes(source: string): Attribute[] {
  const attrs: Attribute[] = [];
  for (const m of source.matchAll(ATTR)) {
    const raw = m[0].trim();
    const value = m[2] ?? m[3] ?? m[4];
    attrs.push({
      name: (m[1] ?? '').toLowerCase(),
      raw,
      value: value === undefined ? undefined : decodeEntities(value),
    });
  }
  return attrs;
}

/** 'classic', 'module', 'unmovable' (importmap…) or 'data' (never executed). */
export type ScriptKind = 'classic' | 'module' | 'unmovable' | 'data';

export function scriptKind(attrs: readonly Attribute[]): ScriptKind {
  const typeAttr = attrs.find((a) => a.name === 'type');
  const type = (typeAttr?.value ?? '').trim().toLowerCase();
  if (type === '' || JS_TYPES.has(type)) return 'classic';
  if (type === 'module') return 'module';
  if (UNMOVABLE_TYPES.has(type)) return 'unmovable';
  return 'data';
}

function* scripts(html: string): Generator<{ index: number; length: number; attrs: Attribute[]; body: string }> {
  for (const m of html.matchAll(TOKEN)) {
    if (m[1] === undefined && m[2] === undefined) continue;
    const attrs = parseAttributes(m[1] ?? '');
    yield { index: m.index, length: m[0].length, attrs, body: m[2] ?? '' };
  }
}

export function sha256Prefix(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}

/**
 * Replaces every inline executable script with `<script src>`, in place.
 * `save(code)` stores the code and returns the URL to load it from.
 * Returns the new HTML and how many scripts were moved.
 */
export function externalizeInlineScripts(
  html: string,
  save: (code: string) => string,
): { html: string; moved: number } {
  let out = '';
  let last = 0;
  let moved = 0;
  for (const s of scripts(html)) {
    const kind = scriptKind(s.attrs);
    const hasSrc = s.attrs.some((a) => a.name === 'src');
    if (hasSrc || s.body.trim() === '' || (kind !== 'classic' && kind !== 'module')) continue;
    // An inline classic script ignores async/defer; a classic script with src
    // would honour them and run out of order, so they go. Modules keep theirs.
    const kept = s.attrs.filter((a) => kind === 'module' || (a.name !== 'async' && a.name !== 'defer'));
    const url = save(s.body);
    const tag = `<script${kept.map((a) => ` ${a.raw}`).join('')} src="${url}"></script>`;
    out += html.slice(last, s.index) + tag;
    last = s.index + s.length;
    moved++;
  }
  return { html: out + html.slice(last), moved };
}

function isJavascriptUrl(value: string): boolean {
  // Browsers strip leading control characters and whitespace, and ignore tabs/newlines inside the scheme.
  return /^javascript:/i.test(value.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, ''));
}

function isOffOrigin(value: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(value.trim()) && !/^(?:data|blob):/i.test(value.trim());
}

/**
 * Everything in a page that the admin CSP would block or that needs
 * 'unsafe-inline'. `fileExists(url)` checks that a same-origin script URL
 * points at a built file. Returns human-readable problems; empty means clean.
 */
export function findCspProblems(html: string, fileExists: (url: string) => boolean): string[] {
  const problems: string[] = [];
  const snippet = (i: number) => JSON.stringify(html.slice(i, i + 80));
  let scriptCount = 0;
  for (const m of html.matchAll(TOKEN)) {
    const isScript = m[1] !== undefined || m[2] !== undefined;
    if (!isScript && m[3] === undefined) continue; // comment or <style>
    const tag = isScript ? 'script' : (m[3] ?? '').toLowerCase();
    const attrs = parseAttributes((isScript ? m[1] : m[4]) ?? '');
    if (isScript) {
      scriptCount++;
      const kind = scriptKind(attrs);
      const src = attrs.find((a) => a.name === 'src')?.value;
      const body = m[2] ?? '';
      if (src === undefined && body.trim() !== '' && kind !== 'data') {
        problems.push(`inline ${kind} script at ${m.index}: ${snippet(m.index)}`);
      }
      if (src !== undefined && (kind === 'classic' || kind === 'module')) {
        if (isOffOrigin(src)) problems.push(`script from another origin: ${src}`);
        else if (!fileExists(src)) problems.push(`script file missing: ${src}`);
      }
    }
    if (tag === 'base') problems.push(`<base> is blocked by base-uri 'none' at ${m.index}`);
    if (tag === 'object' || tag === 'embed') problems.push(`<${tag}> is blocked by object-src 'none' at ${m.index}`);
    for (const a of attrs) {
      if (/^on[a-z]+$/.test(a.name)) problems.push(`inline event handler ${a.name}= on <${tag}> at ${m.index}`);
      if (a.value === undefined || !URL_ATTRS.has(a.name)) continue;
      if (isJavascriptUrl(a.value)) problems.push(`javascript: URL in ${a.name}= on <${tag}> at ${m.index}`);
      else if (SUBRESOURCE_TAGS.has(tag) && isOffOrigin(a.value) && !(tag === 'link' && isNavigationLink(attrs))) {
        problems.push(`subresource from another origin: <${tag} ${a.name}="${a.value}">`);
      }
      if (tag === 'form' && a.name === 'action' && isOffOrigin(a.value))
        problems.push(`form posts to another origin: ${a.value}`);
    }
  }
  const rawCount = (html.match(/<script\b/gi) ?? []).length;
  if (rawCount !== scriptCount) {
    problems.push(`found ${rawCount} "<script" but understood ${scriptCount} script elements: the HTML needs a look`);
  }
  return problems;
}

/** <link rel=canonical|alternate…> only names a URL; it loads nothing. */
function isNavigationLink(attrs: readonly Attribute[]): boolean {
  const rel = (attrs.find((a) => a.name === 'rel')?.value ?? '').toLowerCase().split(/\s+/);
  return rel.every((r) =>
    ['canonical', 'alternate', 'author', 'help', 'license', 'next', 'prev', 'search', 'me'].includes(r),
  );
}
