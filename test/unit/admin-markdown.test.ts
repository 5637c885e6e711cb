import { describe, expect, it } from 'vitest';
import {
  type Block,
  type Inline,
  parseInline,
  parseMarkdown,
  safeHref,
  safeImageSrc,
} from '../../admin-qwik/src/lib/markdown.js';

/** Every link target and image source anywhere in the tree. */
function urls(blocks: Block[]): string[] {
  const inline = (c: Inline[]): string[] =>
    c.flatMap((i) =>
      i.t === 'link'
        ? [i.href, ...inline(i.c)]
        : i.t === 'img'
          ? [i.src]
          : i.t === 'strong' || i.t === 'em'
            ? inline(i.c)
            : [],
    );
  return blocks.flatMap((b) =>
    b.t === 'h' || b.t === 'p'
      ? inline(b.c)
      : b.t === 'ul' || b.t === 'ol'
        ? b.items.flatMap(inline)
        : b.t === 'quote'
          ? urls(b.c)
          : [],
  );
}

describe('admin markdown preview: safety', () => {
  it('keeps only http(s), mailto, fragment and same-site links', () => {
    for (const ok of ['https://example.com/', 'HTTP://x.test', 'mailto:a@b.c', '#top', '/articles', ' /padded '])
      expect(safeHref(ok)).toBe(ok.trim());
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:x',
      'data:text/html,<script>',
      'vbscript:x',
      '//evil.test/',
      '/\\evil.test',
      'relative/path',
      '',
    ])
      expect(safeHref(bad)).toBeNull();
  });

  it('loads images only from this site (img-src self)', () => {
    expect(safeImageSrc('/static/uploadedImages/a.jpg')).toBe('/static/uploadedImages/a.jpg');
    for (const bad of [
      'https://tracker.test/p.gif',
      '//tracker.test/p.gif',
      '/\\tracker.test',
      'data:image/png;base64,AAAA',
      'javascript:x',
      'a.jpg',
    ])
      expect(safeImageSrc(bad)).toBeNull();
  });

  it('turns refused links into their text and refused images into the literal source', () => {
    expect(parseInline('[click](javascript:alert(1))')).toEqual([
      { t: 'text', v: 'click' },
      { t: 'text', v: ')' },
    ]);
    expect(parseInline('![x](https://t.test/p.gif)')).toEqual([{ t: 'text', v: '![x](https://t.test/p.gif)' }]);
  });

  it('keeps raw HTML as text, never as elements', () => {
    const blocks = parseMarkdown('<img src=x onerror="window.__pwned=1">\n\n<script>alert(1)</script>');
    expect(blocks).toEqual([
      { t: 'p', c: [{ t: 'text', v: '<img src=x onerror="window.__pwned=1">' }] },
      { t: 'p', c: [{ t: 'text', v: '<script>alert(1)</script>' }] },
    ]);
  });

  it('lets no unsafe URL through anywhere in a hostile document', () => {
    const body = [
      '# [h](javascript:a)',
      '> [q](data:text/html,x) and ![i](//evil.test/i.png)',
      '- **[b](vbscript:x)**',
      '1. *[e](/ok)* ![ok](/static/uploadedImages/ok.png)',
      'Text [mail](mailto:a@b.c) [frag](#f) [ext](https://ok.test/)',
    ].join('\n');
    expect(urls(parseMarkdown(body)).sort()).toEqual([
      '#f',
      '/ok',
      '/static/uploadedImages/ok.png',
      'https://ok.test/',
      'mailto:a@b.c',
    ]);
  });
});

describe('admin markdown preview: structure', () => {
  it('reads headings, lists, quotes, fences, rules and inline marks', () => {
    const blocks = parseMarkdown(
      '## Title ##\n\n- a\n- b\n\n3. c\n\n> quoted *em*\n\n```\n<b>raw</b>\n```\n\n---\n\n**bold** `code` \\*not em\\*',
    );
    expect(blocks).toEqual([
      { t: 'h', level: 2, c: [{ t: 'text', v: 'Title' }] },
      { t: 'ul', items: [[{ t: 'text', v: 'a' }], [{ t: 'text', v: 'b' }]] },
      { t: 'ol', items: [[{ t: 'text', v: 'c' }]] },
      {
        t: 'quote',
        c: [
          {
            t: 'p',
            c: [
              { t: 'text', v: 'quoted ' },
              { t: 'em', c: [{ t: 'text', v: 'em' }] },
            ],
          },
        ],
      },
      { t: 'pre', v: '<b>raw</b>' },
      { t: 'hr' },
      {
        t: 'p',
        c: [
          { t: 'strong', c: [{ t: 'text', v: 'bold' }] },
          { t: 'text', v: ' ' },
          { t: 'code', v: 'code' },
          { t: 'text', v: ' *not em*' },
        ],
      },
    ]);
  });

  it('joins the lines of a paragraph and reads CRLF bodies alike', () => {
    expect(parseMarkdown('one\r\ntwo\r\n\r\nthree')).toEqual([
      { t: 'p', c: [{ t: 'text', v: 'one two' }] },
      { t: 'p', c: [{ t: 'text', v: 'three' }] },
    ]);
  });
});
