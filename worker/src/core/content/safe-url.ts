/**
 * Which link targets and image sources rendered HTML may carry. An
 * allowlist of schemes, judged the way a browser reads the URL: leading
 * controls and spaces are dropped and tabs and line breaks removed
 * anywhere, so `\u0001java\tscript:` is seen as `javascript:`. Entities are
 * already decoded by the HTML tokenizer (`&#106;avascript:` arrives as
 * `javascript:`). Anything without a scheme is relative and resolves
 * against the page that shows it.
 */
export type UrlUse = 'link' | 'image';

const LINK_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);
const IMAGE_SCHEMES = new Set(['http', 'https']);
// Raster images only: an SVG document is a script container.
const IMAGE_DATA = /^data:image\/(?:png|gif|jpeg|webp)[;,]/i;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** The scheme a browser would use, lower-cased; '' for a relative URL; null when it cannot be told safely. */
function schemeOf(url: string): string | null {
  let start = 0;
  while (start < url.length && url.charCodeAt(start) <= 0x20) start++;
  // A scheme is short: 64 characters decide it, whatever the URL's length.
  let head = '';
  for (let i = start; i < url.length && head.length < 64; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x09 || c === 0x0a || c === 0x0d) continue;
    head += url[i];
  }
  const colon = head.indexOf(':');
  const firstSeparator = head.search(/[/?#]/);
  if (colon === -1 || (firstSeparator !== -1 && firstSeparator < colon)) {
    // No scheme before the path: relative, unless it hides control characters.
    const end = colon === -1 ? head.length : colon;
    for (let i = 0; i < end; i++) if (head.charCodeAt(i) < 0x20 || head.charCodeAt(i) === 0x7f) return null;
    return '';
  }
  const match = SCHEME.exec(head);
  return match ? match[1]!.toLowerCase() : null;
}

export function isSafeUrl(url: string, use: UrlUse): boolean {
  const scheme = schemeOf(url);
  if (scheme === null) return false;
  if (scheme === '') return true;
  if (use === 'link') return LINK_SCHEMES.has(scheme);
  return IMAGE_SCHEMES.has(scheme) || (scheme === 'data' && IMAGE_DATA.test(url.trim()));
}
