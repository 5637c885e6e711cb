import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderArticleHtml } from '../../worker/src/core/content/render.js';
import { sanitizeHtml } from '../../worker/src/core/content/sanitize-html.js';
import { ARTICLE_FORMATS } from '../../worker/src/features/articles/article.schema.js';
import { executableContent } from '../support/inert-html.js';

/** XSS vectors, each as a Markdown body and as an HTML body: none may survive in either. */
const HOSTILE = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<script/src="//evil.example/x.js"></script>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" ONERROR="alert(1)">',
  '<img/src=x/onerror=alert(1)>',
  '<body onload=alert(1)>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><style><img src=x onerror=alert(1)></style></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="\u0001javascript:alert(1)">x</a>',
  '<a href="java\tscript:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<input onfocus=alert(1) autofocus>',
  '<details open ontoggle=alert(1)>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="position:fixed;inset:0">overlay</p>',
  '<base href="javascript:/">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<!--><script>alert(1)</script>-->',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<template><script>alert(1)</script></template>',
  '<textarea><script>alert(1)</script></textarea>',
  '<title><img src=x onerror=alert(1)></title>',
  '<a href="x" onclick="alert(1)" onmouseover=alert(1)>x</a>',
  '<p title="a" title="b" onclick="alert(1)">dup</p>',
  '<<script>script>alert(1)<</script>/script>',
  '<scr<script>ipt>alert(1)</script>',
  '<img src=x onerror=alert(1)//',
  '<a href="https://ok.example" title="&quot;onmouseover=alert(1)&quot;">ok</a>',
  '[x](javascript:alert(1))',
  '[x](JAVASCRIPT:alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](<javascript:alert(1)>)',
  '![x](javascript:alert(1))',
  '![x](data:text/html,<script>alert(1)</script>)',
  '[x][r]\n\n[r]: javascript:alert(1)',
  '<javascript:alert(1)>',
  '**<img src=y onerror=alert(1)>**',
  '`<script>`</script>',
  '<div>\n<script>alert(1)</script>\n</div>',
  '- [ ] <img src=x onerror=alert(1)>',
  '| a |\n|---|\n| <script>alert(1)</script> |',
];

describe('renderArticleHtml: hostile input', () => {
  it.each(HOSTILE.flatMap((input) => ARTICLE_FORMATS.map((format) => [format, input] as const)))(
    '%s: %s',
    (format, input) => {
      const html = renderArticleHtml(input, format);
      expect(executableContent(html), html).toBeNull();
      expect(html.toLowerCase()).not.toMatch(/<(script|iframe|svg|object|embed|style|base|meta|link|form)[\s/>]/);
    },
  );

  it('keeps safe links and images working in both formats', () => {
    for (const format of ['markdown', 'html'] as const) {
      const body =
        format === 'markdown'
          ? '[a](https://a.example/x?y=1&z=2) [m](mailto:ada@example.com) [r](/relative) ![i](/static/uploadedImages/p.png) ![d](data:image/png;base64,iVBORw0KGgo=)'
          : '<a href="https://a.example/x?y=1&amp;z=2">a</a> <a href="mailto:ada@example.com">m</a> <a href="/relative">r</a> <img src="/static/uploadedImages/p.png" alt="i"> <img src="data:image/png;base64,iVBORw0KGgo=" alt="d">';
      const html = renderArticleHtml(body, format);
      expect(html).toContain('href="https://a.example/x?y=1&amp;z=2"');
      expect(html).toContain('href="mailto:ada@example.com"');
      expect(html).toContain('href="/relative"');
      expect(html).toContain('src="/static/uploadedImages/p.png"');
      expect(html).toContain('src="data:image/png;base64,iVBORw0KGgo="');
    }
  });

  it('lets the caller narrow images and open links in a new tab (the admin preview)', () => {
    const html = renderArticleHtml(
      '[a](https://a.example) ![x](https://cdn.example/x.png) ![y](/static/uploadedImages/y.png)',
      'markdown',
      {
        allowImage: (src) => src.startsWith('/') && !src.startsWith('//'),
        linksInNewTab: true,
      },
    );
    expect(html).toContain('<a href="https://a.example" target="_blank" rel="noopener noreferrer nofollow">a</a>');
    expect(html).not.toContain('cdn.example');
    expect(html).toContain('src="/static/uploadedImages/y.png"');
  });

  // An alphabet of the pieces attacks are made of, so random strings hit the interesting paths often.
  const piece = fc.constantFrom(
    '<',
    '>',
    '</',
    '/>',
    '<!--',
    '-->',
    '<!',
    '<?',
    '"',
    "'",
    '=',
    ' ',
    '\t',
    '\n',
    '\u0000',
    '\u0001',
    'script',
    'svg',
    'img',
    'a',
    'iframe',
    'style',
    'math',
    'noscript',
    'template',
    'textarea',
    'title',
    'p',
    'table',
    'td',
    'src',
    'href',
    'onerror',
    'onload',
    'style',
    'srcdoc',
    'alert(1)',
    'javascript:',
    'java\tscript:',
    'JaVaScRiPt:',
    'vbscript:',
    'data:text/html,',
    'data:image/png,',
    '&#',
    '&#x',
    '6A;',
    '106;',
    '&colon;',
    '&quot;',
    '&amp;',
    '&lt;',
    '[',
    ']',
    '(',
    ')',
    '!',
    '*',
    '_',
    '`',
    '~~',
    '|',
    '-',
    '#',
    '> ',
    '1. ',
    '- [ ] ',
    'x',
  );
  const body = fc.array(piece, { maxLength: 80 }).map((pieces) => pieces.join(''));

  it('never lets executable content through, for any body in any format (fast-check)', () => {
    fc.assert(
      fc.property(body, fc.constantFrom(...ARTICLE_FORMATS), (input, format) => {
        const html = renderArticleHtml(input, format);
        expect(executableContent(html)).toBeNull();
      }),
      { numRuns: 3000 },
    );
  });

  it('writes HTML that its own sanitiser keeps as it is: a browser sees exactly what was written (fast-check)', () => {
    fc.assert(
      fc.property(body, (input) => {
        const once = sanitizeHtml(input);
        expect(sanitizeHtml(once)).toBe(once);
      }),
      { numRuns: 3000 },
    );
  });
});
