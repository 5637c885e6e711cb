/**
 * A small Markdown reader for the editor's preview. It produces a tree of
 * plain data that the preview renders as elements it creates itself, with
 * every piece of the body as a text node: raw HTML in the body is shown as
 * text, never parsed; links keep only http(s), mailto, and same-site paths;
 * images only same-site paths (the CSP allows img-src 'self').
 */
export type Inline =
  | { t: 'text'; v: string }
  | { t: 'strong'; c: Inline[] }
  | { t: 'em'; c: Inline[] }
  | { t: 'code'; v: string }
  | { t: 'link'; href: string; c: Inline[] }
  | { t: 'img'; src: string; alt: string };

export type Block =
  | { t: 'h'; level: 1 | 2 | 3 | 4 | 5 | 6; c: Inline[] }
  | { t: 'p'; c: Inline[] }
  | { t: 'ul'; items: Inline[][] }
  | { t: 'ol'; items: Inline[][] }
  | { t: 'pre'; v: string }
  | { t: 'quote'; c: Block[] }
  | { t: 'hr' };

/** A link target the preview may follow, or null. */
export function safeHref(raw: string): string | null {
  const href = raw.trim();
  if (/^(https?:\/\/|mailto:)/i.test(href)) return href;
  if (href.startsWith('#')) return href;
  if (href.startsWith('/') && !href.startsWith('//') && !href.startsWith('/\\')) return href;
  return null;
}

/** An image source the preview may load under img-src 'self', or null. */
export function safeImageSrc(raw: string): string | null {
  const src = raw.trim();
  return src.startsWith('/') && !src.startsWith('//') && !src.startsWith('/\\') ? src : null;
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      const code: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) code.push(lines[i++]!);
      i++;
      blocks.push({ t: 'pre', v: code.join('\n') });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      blocks.push({ t: 'h', level: heading[1]!.length as 1, c: parseInline(heading[2]!) });
      i++;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      blocks.push({ t: 'hr' });
      i++;
      continue;
    }
    if (/^\s*>/.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i]!)) quoted.push(lines[i++]!.replace(/^\s*>\s?/, ''));
      blocks.push({ t: 'quote', c: parseMarkdown(quoted.join('\n')) });
      continue;
    }
    const bullet = /^\s*[-*+]\s+/;
    const ordered = /^\s*\d+[.)]\s+/;
    if (bullet.test(line) || ordered.test(line)) {
      const marker = bullet.test(line) ? bullet : ordered;
      const items: Inline[][] = [];
      while (i < lines.length && marker.test(lines[i]!)) items.push(parseInline(lines[i++]!.replace(marker, '')));
      blocks.push({ t: marker === bullet ? 'ul' : 'ol', items });
      continue;
    }
    const para: string[] = [];
    while (
      i < lines.length &&
      lines[i]!.trim() &&
      !/^(#{1,6}\s|\s*```|\s*~~~|\s*>|\s*[-*+]\s|\s*\d+[.)]\s)/.test(lines[i]!)
    )
      para.push(lines[i++]!.trim());
    if (!para.length) para.push(lines[i++]!.trim());
    blocks.push({ t: 'p', c: parseInline(para.join(' ')) });
  }
  return blocks;
}

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let buf = '';
  const flush = () => {
    if (buf) out.push({ t: 'text', v: buf });
    buf = '';
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    let m: RegExpExecArray | null;
    if (rest[0] === '\\' && rest.length > 1 && /[\\`*_[\]()#!>-]/.test(rest[1]!)) {
      buf += rest[1];
      i += 2;
    } else if ((m = /^`([^`]+)`/.exec(rest))) {
      flush();
      out.push({ t: 'code', v: m[1]! });
      i += m[0].length;
    } else if ((m = /^!\[([^\]]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)/.exec(rest))) {
      flush();
      const src = safeImageSrc(m[2]!);
      out.push(src ? { t: 'img', src, alt: m[1]! } : { t: 'text', v: m[0] });
      i += m[0].length;
    } else if ((m = /^\[([^\]]+)\]\(([^)\s]*)(?:\s+"[^"]*")?\)/.exec(rest))) {
      flush();
      const href = safeHref(m[2]!);
      out.push(href ? { t: 'link', href, c: parseInline(m[1]!) } : { t: 'text', v: m[1]! });
      i += m[0].length;
    } else if ((m = /^(\*\*|__)(?=\S)([\s\S]*?\S)\1/.exec(rest))) {
      flush();
      out.push({ t: 'strong', c: parseInline(m[2]!) });
      i += m[0].length;
    } else if ((m = /^(\*|_)(?=\S)([\s\S]*?\S)\1/.exec(rest))) {
      flush();
      out.push({ t: 'em', c: parseInline(m[2]!) });
      i += m[0].length;
    } else {
      buf += rest[0];
      i++;
    }
  }
  flush();
  return out;
}
