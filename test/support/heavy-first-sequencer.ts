import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest files first, across projects, so that the end of a run keeps both
 * cores busy instead of waiting on one long file started last. Vitest sorts
 * files it has no timings for (a fresh clone, CI) by size, and the API suites'
 * entry files are a few lines that run every feature's contract suite (the
 * longest files of the run), so those are named here; everything else keeps
 * Vitest's own order.
 */
const LONGEST = [/test\/node\/api\//, /test\/workers\/api\.test\.ts$/, /test\/node\/multi-instance\.test\.ts$/];

export class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = LONGEST.findIndex((pattern) => pattern.test(spec.moduleId));
      return i < 0 ? LONGEST.length : i;
    };
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
