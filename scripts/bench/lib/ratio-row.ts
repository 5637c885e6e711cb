import type { BenchRow } from './goals.ts';

/** A row of the table: `value` against `base`, and whether the ratio meets `goal` (null: information only). */
export function ratioRow(
  metric: string,
  value: number,
  base: number,
  goal: number | null,
  unit: string,
  higherIsBetter = true,
  cpu: BenchRow['cpu'] = null,
): BenchRow {
  const ratio = value / base;
  return {
    metric,
    value,
    baseline: base,
    unit,
    ratio,
    goal: goal === null ? null : `${higherIsBetter ? '≥' : '≤'} ${goal.toFixed(2)}`,
    pass: goal === null ? null : higherIsBetter ? ratio >= goal : ratio <= goal,
    cpu,
  };
}
