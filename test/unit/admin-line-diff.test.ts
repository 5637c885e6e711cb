import { describe, expect, it } from 'vitest';
import { lineDiff, MAX_DIFF_LINES } from '../../admin-qwik/src/lib/line-diff';

describe('lineDiff (a revision compared with the text)', () => {
  it('keeps common lines and marks what went and what came, in order', () => {
    expect(lineDiff('a\nb\nc', 'a\nx\nc\nd')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: 'c' },
      { kind: 'added', text: 'd' },
    ]);
    expect(lineDiff('same', 'same')).toEqual([{ kind: 'same', text: 'same' }]);
  });

  it('declines texts too long to compare', () => {
    expect(lineDiff('x\n'.repeat(MAX_DIFF_LINES + 1), 'x')).toBeNull();
  });
});
