import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXCERPT_LENGTH, plainExcerpt, plainText } from '../../worker/src/core/content/excerpt.js';
import { fastestOfEach } from '../support/cpu-time.js';

const SIZE = 150_000;
const repeat = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

describe('plainExcerpt', () => {
  it.each([
    [
      'markdown',
      '# Title\n\nSome **bold** and _em_ text with a [link](https://x.example/a_b) and `code`.',
      'Title Some bold and em text with a link and code.',
    ],
    ['markdown', '![a photo](/static/uploadedImages/a.jpg)\n\n- one\n- two\n\n> quoted', 'one two quoted'],
    ['markdown', 'Tom &amp; Jerry &lt;3 &#233;t&#xE9; \\*not emphasis\\*', 'Tom & Jerry <3 été *not emphasis*'],
    [
      'html',
      '<h1>Head</h1><p>One<br>two &amp; <em>three</em></p><script>alert(1)</script><style>p{}</style>end',
      'Head One two & three end',
    ],
    ['html', '<p>[not a link](x) *stars*</p>', '[not a link](x) *stars*'],
    ['plaintext', '  <b>kept</b>   as\n\n typed ', '<b>kept</b> as typed'],
    ['markdown', 'a < b and c > d, 5 & 6', 'a < b and c d, 5 & 6'],
  ] as const)('%s: %s', (format, body, expected) => {
    expect(plainExcerpt(body, format)).toBe(expected);
  });

  it('cuts at a word, within the length, with an ellipsis', () => {
    const body = 'word '.repeat(200);
    const excerpt = plainExcerpt(body);
    expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_LENGTH);
    expect(excerpt).toMatch(/^(word )+word…$/);
    expect(plainExcerpt(body, 'markdown', 20)).toBe('word word word…');
  });

  it('never ends on half of a surrogate pair', () => {
    const excerpt = plainExcerpt('😀'.repeat(400), 'plaintext', 11);
    expect(excerpt).toBe(`${'😀'.repeat(5)}…`);
  });

  it('reads only the start of a huge body', () => {
    const body = `${'<b></b>'.repeat(2_000_000)}late text`;
    expect(plainExcerpt(body, 'html')).toBe('');
    expect(plainExcerpt(`early text${body}`, 'html')).toBe('early text');
  });

  it('always returns folded plain text within the length, for any input', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('<', '>', '[', ']', '(', ')', '!', '&', ';', '#', '*', '\\', ' ', '\n', 'a', 'é', '😀'),
          maxLength: 400,
        }),
        fc.constantFrom('markdown', 'html', 'plaintext'),
        fc.integer({ min: 10, max: 300 }),
        (body, format, max) => {
          const excerpt = plainExcerpt(body, format, max);
          expect(excerpt.length).toBeLessThanOrEqual(max);
          expect(excerpt).not.toMatch(/\s\s|^\s|\s$/);
          expect(excerpt).not.toMatch(/[\ud800-\udbff]$/);
        },
      ),
    );
  });

  /**
   * Linearity, measured as a ratio: the whole of a hostile body (the window
   * is left out) against a plain body of the same size read as far. The
   * regular expressions this replaces took seconds on 150,000 `[`.
   */
  it.each([
    ['[', 'markdown'],
    ['![', 'markdown'],
    ['[a](', 'markdown'],
    ['[a]', 'markdown'],
    ['<a ', 'html'],
    ['<', 'markdown'],
    ['<script>', 'html'],
    ['&', 'html'],
    ['&#', 'markdown'],
    ['*a ', 'markdown'],
  ] as const)('reads %j × 150,000 in linear time (ratio to a plain body)', (unit, format) => {
    const plain = repeat('lorem ipsum dolor sit amet ');
    const hostile = repeat(unit);
    const all = Number.POSITIVE_INFINITY;
    const [plainRunMs, hostileMs] = fastestOfEach(
      () => plainText(plain, format, all),
      () => plainText(hostile, format, all),
    );
    expect(hostileMs / Math.max(plainRunMs, 0.5)).toBeLessThan(5);
  });
});
