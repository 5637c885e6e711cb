import { describe, expect, it } from 'vitest';
import { renderArticleHtml } from '../../worker/src/core/content/render.js';
import type { ArticleFormat } from '../../worker/src/features/articles/article.schema.js';
import { fastestOfEach } from '../support/cpu-time.js';

const repeat = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

/** Both sizes measured the same way, in turns (see cpu-time.ts), never below a millisecond. */
function cpuMsOfEach(small: () => void, large: () => void): [number, number] {
  const [smallMs, largeMs] = fastestOfEach(small, large);
  return [Math.max(smallMs, 1), Math.max(largeMs, 1)];
}

/**
 * Bodies built to make a parser backtrack or nest without end (the admin's
 * old preview took 450 ms on 48 KB of `*a `; micromark, measured as a
 * candidate, 21 s on 50,000 characters of `1. `). Linearity is measured as
 * growth: eight times the body costs about eight times as much when the
 * work is linear, sixty-four times when it is quadratic; the bound is half
 * the quadratic growth. Linear bodies measure 7 to 17 on a quiet 2-core
 * machine and up to 26 on a loaded one (the larger body's garbage: its
 * collections cost more than in proportion), so a bound nearer the linear
 * side failed where nothing had changed. A ratio of CPU time, so a slow
 * machine matters little; the small body is large enough to take
 * milliseconds, so a timer tick or a GC pause cannot double it.
 */
const HOSTILE: [string, ArticleFormat, (size: number) => string][] = [
  ['*a ', 'markdown', (n) => repeat('*a ', n)],
  ['**a', 'markdown', (n) => repeat('**a', n)],
  ['*_', 'markdown', (n) => repeat('*_', n)],
  ['[', 'markdown', (n) => repeat('[', n)],
  ['[a](', 'markdown', (n) => repeat('[a](', n)],
  ['![', 'markdown', (n) => repeat('![', n)],
  ['[a then ]', 'markdown', (n) => repeat('[a', n / 2) + repeat(']', n / 2)],
  ['[a][b]', 'markdown', (n) => repeat('[a][b]', n)],
  ['[a]: b definitions', 'markdown', (n) => repeat('[a]: b\n', n)],
  ['<a ', 'markdown', (n) => repeat('<a ', n)],
  ['`a ', 'markdown', (n) => repeat('`a ', n)],
  ['~~a ', 'markdown', (n) => repeat('~~a ', n)],
  ['> nesting', 'markdown', (n) => repeat('> ', n)],
  ['1. nesting', 'markdown', (n) => repeat('1. ', n)],
  [
    'indented lists',
    'markdown',
    (n) => Array.from({ length: n / 20 }, (_, i) => `${' '.repeat(i % 200)}- a`).join('\n'),
  ],
  ['a wide table', 'markdown', (n) => `${repeat('|a', n / 3)}\n${repeat('|-', n / 3)}\n${repeat('|b', n / 3)}`],
  ['a long table', 'markdown', (n) => `|a|b|\n|-|-|\n${repeat('|c|d|\n', n)}`],
  ['task items', 'markdown', (n) => repeat('- [ ] a\n', n)],
  ['<div>', 'html', (n) => repeat('<div>', n)],
  ['<b><i>', 'html', (n) => repeat('<b><i>', n)],
  ['<b> then </i>', 'html', (n) => repeat('<b>', n / 2) + repeat('</i>', n / 2)],
  ['<svg>', 'html', (n) => repeat('<svg>', n)],
  ['attributes', 'html', (n) => `<a ${repeat('b ', n)}>`],
  ['quoted attributes', 'html', (n) => `<a ${repeat("b='' ", n)}>`],
  ['<', 'html', (n) => repeat('<', n)],
  ['&amp', 'html', (n) => repeat('&amp', n)],
  ['line breaks', 'plaintext', (n) => repeat('\n \t', n)],
];

describe('renderArticleHtml: linear on hostile bodies', () => {
  const SIZE = 25_000;
  it.each(HOSTILE)(
    '%s (%s): eight times the body costs less than thirty-two times as much',
    (_, format, make) => {
      const small = make(SIZE);
      const large = make(SIZE * 8);
      const [smallMs, largeMs] = cpuMsOfEach(
        () => renderArticleHtml(small, format),
        () => renderArticleHtml(large, format),
      );
      expect(largeMs / smallMs).toBeLessThan(32);
    },
    60_000,
  ); // the ratio is in CPU time; a loaded machine stretches only the wall time
});
