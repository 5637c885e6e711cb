import { describe, expect, it } from 'vitest';
import { NameSlugSchema, slugify } from '../../worker/src/contract/slug.js';
import { fastestCpuMs } from '../support/cpu-time.js';

/**
 * The name-slug rule has a repeated group, `(?:-[a-z0-9]+)*`; each round starts
 * with a hyphen, so it cannot backtrack. Checked as a CPU-time ratio on hostile
 * input of 128 KiB and 1 MiB (a near-slug that fails at its very end).
 */
describe('slug rules: linear on hostile input', () => {
  const hostile = (n: number) => `${'a-'.repeat(n / 2)}a!`;
  it.each([
    ['NameSlugSchema', (s: string) => void NameSlugSchema.safeParse(s)],
    ['slugify', (s: string) => void slugify(s)],
  ])(
    '%s: eight times the input costs less than twenty-four times as much',
    (_, run) => {
      const small = hostile(128 * 1024);
      const large = hostile(1024 * 1024);
      const smallMs = fastestCpuMs(() => run(small));
      const largeMs = fastestCpuMs(() => run(large));
      expect(largeMs / Math.max(smallMs, 0.05)).toBeLessThan(24);
    },
    60_000,
  );
});
