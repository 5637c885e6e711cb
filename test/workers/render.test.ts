import { describe, expect, it } from 'vitest';
import { renderArticleHtml } from '../../worker/src/core/content/render.js';
import { fastestOfEach } from '../support/cpu-time.js';
import { executableContent } from '../support/inert-html.js';

// The renderer the server and the admin share, inside workerd: no DOM, no eval.
describe('renderArticleHtml in workerd', () => {
  it('renders CommonMark and GFM', () => {
    const html = renderArticleHtml(
      '# Title\n\n| a | b |\n|---|:-:|\n| ~~x~~ | y |\n\n- [x] done\n  - nested',
      'markdown',
    );
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<td><s>x</s></td>');
    expect(html).toContain('<td style="text-align:center">y</td>');
    expect(html).toContain('<li><input type="checkbox" checked disabled> done\n<ul>\n<li>nested</li>');
  });

  it('sanitises HTML bodies', () => {
    const html = renderArticleHtml(
      '<p onclick="x()">Hi <a href="java&#x09;script:alert(1)">x</a><img src=x onerror=alert(1)><svg onload=alert(1)></svg><script>alert(2)</script><a href="/ok">ok</a></p>',
      'html',
    );
    expect(executableContent(html)).toBeNull();
    expect(html).toBe('<p>Hi x<img src="x"><a href="/ok">ok</a></p>');
  });

  it('stays linear on a hostile body: eight times the body, well under twenty times the time', () => {
    const small = '![['.repeat(5_000);
    const large = '![['.repeat(40_000);
    // Best of five, the two sizes taking turns: a burst of load beside this file slows one try of each, not one size.
    const [bestSmall, bestLarge] = fastestOfEach(
      () => renderArticleHtml(small, 'markdown'),
      () => renderArticleHtml(large, 'markdown'),
      () => performance.now(),
    );
    // Linear is about 8; quadratic would be 64. (The clock moves during the work here: the larger takes longer.)
    expect(bestLarge).toBeGreaterThan(bestSmall);
    expect(bestLarge / Math.max(bestSmall, 1)).toBeLessThan(20);
  });
});
