import { describe, expect, it } from 'vitest';
import { renderArticleHtml } from '../../worker/src/core/content/render.js';

const md = (body: string) => renderArticleHtml(body, 'markdown');

describe('renderArticleHtml: Markdown (CommonMark + GFM)', () => {
  it.each([
    ['# One\n## Two\n###### Six', '<h1>One</h1>\n<h2>Two</h2>\n<h6>Six</h6>'],
    [
      '*em* _em_ **strong** __strong__ `code`',
      '<p><em>em</em> <em>em</em> <strong>strong</strong> <strong>strong</strong> <code>code</code></p>',
    ],
    ['~~gone~~', '<p><s>gone</s></p>'],
    ['a  \nb', '<p>a<br>\nb</p>'],
    ['> quoted\n> > nested', '<blockquote>\n<p>quoted</p>\n<blockquote>\n<p>nested</p>\n</blockquote>\n</blockquote>'],
    ['---', '<hr>'],
    ['3. three\n4. four', '<ol start="3">\n<li>three</li>\n<li>four</li>\n</ol>'],
    [
      '```ts\nconst a = 1 < 2 && b;\n```',
      '<pre><code class="language-ts">const a = 1 &lt; 2 &amp;&amp; b;\n</code></pre>',
    ],
    ['    indented code', '<pre><code>indented code\n</code></pre>'],
    ['Tom &amp; Jerry &copy; &#169;', '<p>Tom &amp; Jerry © ©</p>'],
    ['<https://auto.example/x>', '<p><a href="https://auto.example/x">https://auto.example/x</a></p>'],
    ['[ref][r]\n\n[r]: https://r.example "Title"', '<p><a href="https://r.example" title="Title">ref</a></p>'],
    [
      '![alt text](/static/uploadedImages/a.png "Pic")',
      '<p><img src="/static/uploadedImages/a.png" alt="alt text" title="Pic"></p>',
    ],
    ['\\*not em\\*', '<p>*not em*</p>'],
  ])('%j', (body, expected) => {
    expect(md(body).trim()).toBe(expected);
  });

  it('keeps nested lists nested', () => {
    expect(md('- one\n  - one.one\n    - one.one.one\n- two\n\n1. first\n   - inside')).toBe(
      [
        '<ul>',
        '<li>one',
        '<ul>',
        '<li>one.one',
        '<ul>',
        '<li>one.one.one</li>',
        '</ul>',
        '</li>',
        '</ul>',
        '</li>',
        '<li>two</li>',
        '</ul>',
        '<ol>',
        '<li>first',
        '<ul>',
        '<li>inside</li>',
        '</ul>',
        '</li>',
        '</ol>',
        '',
      ].join('\n'),
    );
  });

  it('renders GFM tables with their alignment', () => {
    const html = md('| Left | Centre | Right |\n|:-----|:------:|------:|\n| a | **b** | `c` |');
    expect(html).toContain('<th style="text-align:left">Left</th>');
    expect(html).toContain('<th style="text-align:center">Centre</th>');
    expect(html).toContain('<th style="text-align:right">Right</th>');
    expect(html).toContain('<td style="text-align:center"><strong>b</strong></td>');
    expect(html).toMatch(/^<table>\n<thead>[\s\S]*<tbody>[\s\S]*<\/table>\n$/);
  });

  it('renders task lists as disabled checkboxes', () => {
    expect(md('- [ ] to do\n- [x] done\n- [X] also done\n- [y] not a task\n- plain')).toBe(
      [
        '<ul>',
        '<li><input type="checkbox" disabled> to do</li>',
        '<li><input type="checkbox" checked disabled> done</li>',
        '<li><input type="checkbox" checked disabled> also done</li>',
        '<li>[y] not a task</li>',
        '<li>plain</li>',
        '</ul>',
        '',
      ].join('\n'),
    );
  });

  it('shows raw HTML inside Markdown as text', () => {
    expect(md('Hello <b>bold</b>\n\n<div>block</div>')).toBe(
      '<p>Hello &lt;b&gt;bold&lt;/b&gt;</p>\n<p>&lt;div&gt;block&lt;/div&gt;</p>\n',
    );
  });

  it('leaves a link with a refused target as text', () => {
    expect(md('[click](javascript:alert(1))')).toBe('<p>[click](javascript:alert(1))</p>\n');
  });
});

describe('renderArticleHtml: HTML and plain text', () => {
  it('keeps the allowed elements and attributes of an HTML body', () => {
    const body =
      '<h2 id="x" class="y">Head</h2><p>Text with <a href="https://a.example" title="t" target="_top">a link</a>, <em>em</em> and <code class="language-js">code</code>.</p>' +
      '<figure><img src="/static/uploadedImages/a.png" alt="A" width="640" height="480" loading="lazy" onload="x()"><figcaption>Cap</figcaption></figure>' +
      '<table><thead><tr><th scope="col" align="center">H</th></tr></thead><tbody><tr><td colspan="2">D</td></tr></tbody></table>' +
      '<ul><li>one<li>two</ul><details open><summary>More</summary>Hidden</details>';
    expect(renderArticleHtml(body, 'html')).toBe(
      '<h2>Head</h2><p>Text with <a href="https://a.example" title="t">a link</a>, <em>em</em> and <code class="language-js">code</code>.</p>' +
        '<figure><img src="/static/uploadedImages/a.png" alt="A" width="640" height="480" loading="lazy"><figcaption>Cap</figcaption></figure>' +
        '<table><thead><tr><th scope="col" align="center">H</th></tr></thead><tbody><tr><td colspan="2">D</td></tr></tbody></table>' +
        '<ul><li>one</li><li>two</li></ul><details open><summary>More</summary>Hidden</details>',
    );
  });

  it('closes what the body left open and drops stray closing tags', () => {
    expect(renderArticleHtml('<p><strong>bold <em>both</p></i>after', 'html')).toBe(
      '<p><strong>bold <em>both</em></strong></p>after',
    );
  });

  it('escapes plain text and keeps its paragraphs and line breaks', () => {
    expect(renderArticleHtml('First <line>\nsecond & third\n\n\n  \nNext paragraph', 'plaintext')).toBe(
      '<p>First &lt;line&gt;<br>\nsecond &amp; third</p>\n<p>Next paragraph</p>',
    );
  });
});
