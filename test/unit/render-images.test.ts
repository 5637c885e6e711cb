import { describe, expect, it } from 'vitest';
import { type LibraryImage, renderArticleHtml } from '../../worker/src/core/content/render.js';

const SRC = '/static/uploadedImages/a.jpg';
const photo: LibraryImage = {
  width: 800,
  height: 600,
  srcset: `${SRC}?w=320 320w, ${SRC}?w=640 640w`,
  alt: 'A harbour',
  caption: 'The harbour at dawn',
};
const facts = `width="800" height="600" srcset="${SRC}?w=320 320w, ${SRC}?w=640 640w" sizes="(max-width: 800px) 100vw, 800px" loading="lazy" decoding="async"`;
const stored = { libraryImages: { [SRC]: photo }, headingIds: true };

describe('renderArticleHtml: library images', () => {
  it('makes a paragraph holding only a captioned library image its figure', () => {
    expect(renderArticleHtml(`![boats](${SRC} "Title")`, 'markdown', stored)).toBe(
      `<figure><img src="${SRC}" alt="boats" title="Title" ${facts}><figcaption>The harbour at dawn</figcaption></figure>\n`,
    );
  });

  it("takes the Markdown title as the caption when the image has none, and the image's alt when the body gives none", () => {
    const uncaptioned = { libraryImages: { [SRC]: { ...photo, caption: '' } } };
    expect(renderArticleHtml(`![](${SRC} "From the title")`, 'markdown', uncaptioned)).toBe(
      `<figure><img src="${SRC}" alt="A harbour" title="From the title" ${facts}><figcaption>From the title</figcaption></figure>\n`,
    );
    expect(renderArticleHtml(`![x](${SRC})`, 'markdown', uncaptioned)).toBe(
      `<p><img src="${SRC}" alt="x" ${facts}></p>\n`,
    );
  });

  it('keeps an image inside text a plain image, and writes a figure where flow content may stand', () => {
    expect(renderArticleHtml(`See ![x](${SRC}) here`, 'markdown', stored)).toBe(
      `<p>See <img src="${SRC}" alt="x" ${facts}> here</p>\n`,
    );
    expect(renderArticleHtml(`<div><img src="${SRC}"></div>`, 'html', stored)).toBe(
      `<div><figure><img src="${SRC}" alt="A harbour" ${facts}><figcaption>The harbour at dawn</figcaption></figure></div>`,
    );
    // An author's own figure is not wrapped again.
    expect(renderArticleHtml(`<figure><img src="${SRC}"></figure>`, 'html', stored)).toBe(
      `<figure><img src="${SRC}" alt="A harbour" ${facts}></figure>`,
    );
  });

  it("replaces a body's own size and srcset of a library image with the stored facts", () => {
    const body = `<p><img src="${SRC}" width="1" height="1" srcset="/x.jpg 2x" loading="eager"></p><p>after</p>`;
    expect(renderArticleHtml(body, 'html', { libraryImages: { [SRC]: { ...photo, caption: '' } } })).toBe(
      `<p><img src="${SRC}" alt="A harbour" ${facts}></p><p>after</p>`,
    );
  });

  it('leaves out srcset and sizes for an image no variant can be made of', () => {
    const huge = { libraryImages: { [SRC]: { ...photo, srcset: '', caption: '' } } };
    expect(renderArticleHtml(`![x](${SRC})`, 'markdown', huge)).toBe(
      `<p><img src="${SRC}" alt="x" width="800" height="600" loading="lazy" decoding="async"></p>\n`,
    );
  });

  it('escapes a caption and closes the figure where the paragraph ends', () => {
    const html = renderArticleHtml(`![x](${SRC})\n\nnext`, 'markdown', {
      libraryImages: { [SRC]: { ...photo, caption: '<script>"x"</script>' } },
    });
    expect(html).toContain('<figcaption>&lt;script&gt;&quot;x&quot;&lt;/script&gt;</figcaption></figure>\n<p>next</p>');
  });

  it('keeps the responsive attributes written by hand when they are safe, and only those', () => {
    const body =
      '<img src="https://cdn.example/a.jpg" srcset="https://cdn.example/a.jpg 1x, https://cdn.example/b.jpg 2x" sizes="(max-width: 600px) 100vw, 600px" loading="LAZY" decoding="async" fetchpriority="high" style="x" id="y">';
    expect(renderArticleHtml(body, 'html')).toBe(
      '<img src="https://cdn.example/a.jpg" srcset="https://cdn.example/a.jpg 1x, https://cdn.example/b.jpg 2x" sizes="(max-width: 600px) 100vw, 600px" loading="lazy" decoding="async">',
    );
    expect(
      renderArticleHtml(
        '<img src="/a.jpg" srcset="/a.jpg 1x, javascript:alert(1) 2x" sizes="100vw; color: red" loading="soon" decoding="x">',
        'html',
      ),
    ).toBe('<img src="/a.jpg">');
  });

  it('treats an image not of the library, or with a query, as any other image', () => {
    expect(renderArticleHtml(`![x](${SRC}?w=320)`, 'markdown', stored)).toBe(
      `<p><img src="${SRC}?w=320" alt="x"></p>\n`,
    );
  });
});

describe('renderArticleHtml: heading ids', () => {
  it('gives every heading an id from its text, distinct within the body', () => {
    const html = renderArticleHtml('# Hello *World*\n\n## Hello World\n\n## 日本語\n\n### Ça va?', 'markdown', stored);
    expect(html).toBe(
      '<h1 id="hello-world">Hello <em>World</em></h1>\n<h2 id="hello-world-2">Hello World</h2>\n<h2 id="section">日本語</h2>\n<h3 id="ca-va">Ça va?</h3>\n',
    );
  });

  it("drops a body's own ids and writes none without the option (the admin's preview)", () => {
    expect(renderArticleHtml('<h2 id="x">Title &amp; more</h2>', 'html', stored)).toBe(
      '<h2 id="title-more">Title &amp; more</h2>',
    );
    expect(renderArticleHtml('<h2 id="x">Title</h2>', 'html')).toBe('<h2>Title</h2>');
  });
});
