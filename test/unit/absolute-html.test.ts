import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { absoluteHtml } from '../../worker/src/features/articles/article-dto.js';
import { IMAGE_URL_PREFIX } from '../../worker/src/features/media/image-dto.js';

/** What reads did before: one regular expression over the stored html (linear too, but a second pass). */
const byRegex = (html: string, origin: string) =>
  html.replace(
    new RegExp(` (src|href)="${IMAGE_URL_PREFIX}`, 'g'),
    (_m, name: string) => ` ${name}="${origin}${IMAGE_URL_PREFIX}`,
  );

/** Pieces that meet at every boundary the join looks at: attribute names, quotes, our prefix, near misses. */
const piece = fc.constantFrom(
  ' src="',
  ' href="',
  ' srcset="',
  'data-src="',
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
  it('makes exactly the links a src or href attribute starts with absolute, whatever surrounds them', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string({ maxLength: 3 })), { maxLength: 40 }), (parts) => {
        const html = parts.join('');
        expect(absoluteHtml(html, 'https://cms.example')).toBe(byRegex(html, 'https://cms.example'));
      }),
      { numRuns: 2000 },
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
