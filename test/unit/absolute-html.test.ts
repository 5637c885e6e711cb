import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { absoluteHtml } from '../../worker/src/features/articles/article-dto.js';
import { IMAGE_URL_PREFIX } from '../../worker/src/features/media/image-dto.js';

/** The same with regular expressions: src and href, then each srcset candidate that starts with our prefix. */
const byRegex = (html: string, origin: string) =>
  html
    .replace(
      new RegExp(` (src|href)="${IMAGE_URL_PREFIX}`, 'g'),
      (_m, name: string) => ` ${name}="${origin}${IMAGE_URL_PREFIX}`,
    )
    .replace(
      / srcset="([^"]*)"/g,
      (_m, value: string) =>
        ` srcset="${value
          .split(', ')
          .map((c) => (c.startsWith(IMAGE_URL_PREFIX) ? origin + c : c))
          .join(', ')}"`,
    );

/** Pieces that meet at every boundary the join looks at: attribute names, quotes, our prefix, near misses. */
const piece = fc.constantFrom(
  ' src="',
  ' href="',
  ' srcset="',
  'data-src="',
  ', ',
  ' 320w',
  '="',
  IMAGE_URL_PREFIX,
  '/static/uploadedImage/',
  'x.png"',
  '<img',
  '<a',
  '>',
  ' ',
  '"',
  'é',
);

describe('absoluteHtml: our image links joined with the origin', () => {
  it('makes exactly the links a src, href or srcset candidate starts with absolute, whatever surrounds them', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string({ maxLength: 3 })), { maxLength: 40 }), (parts) => {
        const html = parts.join('');
        expect(absoluteHtml(html, 'https://cms.example')).toBe(byRegex(html, 'https://cms.example'));
      }),
      { numRuns: 2000 },
    );
  });

  it('makes every candidate of a srcset absolute', () => {
    const srcset = `${IMAGE_URL_PREFIX}a.png?w=320 320w, ${IMAGE_URL_PREFIX}a.png?w=640 640w`;
    expect(absoluteHtml(`<img src="${IMAGE_URL_PREFIX}a.png" srcset="${srcset}">`, 'http://h')).toBe(
      `<img src="http://h${IMAGE_URL_PREFIX}a.png" srcset="http://h${IMAGE_URL_PREFIX}a.png?w=320 320w, http://h${IMAGE_URL_PREFIX}a.png?w=640 640w">`,
    );
  });

  it('leaves the html as stored without an origin, and the site’s own paths alone', () => {
    const html = `<p><img src="${IMAGE_URL_PREFIX}a.png" alt=""> <a href="/about">x</a></p>`;
    expect(absoluteHtml(html, '')).toBe(html);
    expect(absoluteHtml(html, 'http://h')).toBe(
      `<p><img src="http://h${IMAGE_URL_PREFIX}a.png" alt=""> <a href="/about">x</a></p>`,
    );
  });
});
