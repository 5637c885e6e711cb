import { describe, expect, it } from 'vitest';
import { NameSlugSchema, slugify } from '../../worker/src/wire/slug.js';
import { fastestOfEach } from '../support/cpu-time.js';

/**
 * The name-slug rule has a repeated group, `(?:-[a-z0-9]+)*`; each round starts
 * with a hyphen, so it cannot backtrack. Checked as a CPU-time ratio on hostile
 * input eight times apart, up to 1 and 2 MiB (a near-slug that fails at its very end).
 */
describe('slug rules: linear on hostile input', () => {
  const hostile = (n: number) => `${'a-'.repeat(n / 2)}a!`;
  // slugify's sizes start above 128 KiB: from there to 256 KiB its cost steps up about threefold
  // once (V8's large strings, measured), which a ratio across that step would read as growth.
  it.each([
    ['NameSlugSchema', (s: string): void => void NameSlugSchema.safeParse(s), 128],
    ['slugify', (s: string): void => void slugify(s), 256],
  ] as const)(
    '%s: eight times the input costs less than twenty-four times as much',
    (_, run, kib) => {
      const small = hostile(kib * 1024);
      const large = hostile(8 * kib * 1024);
      // In turns (cpu-time.ts): a burst of load or the larger input's garbage reaches both sizes alike.
      const [smallMs, largeMs] = fastestOfEach(
        () => run(small),
        () => run(large),
      );
      expect(largeMs / Math.max(smallMs, 0.05)).toBeLessThan(24);
    },
    60_000,
  );
});
