import { readdirSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';

/** Newest modification time of any file below the given paths (0 when none). */
export function newestMtime(paths: readonly string[]): number {
  let newest = 0;
  const visit = (p: string): void => {
    let s: Stats;
    try {
      s = statSync(p);
    } catch {
      return;
    }
    if (s.isDirectory()) {
      for (const entry of readdirSync(p)) if (entry !== 'node_modules' && entry !== 'dist') visit(path.join(p, entry));
    } else newest = Math.max(newest, s.mtimeMs);
  };
  for (const p of paths) visit(p);
  return newest;
}

/** True when `output` is missing or older than any of `inputs`. */
export function isStale(output: string, inputs: readonly string[]): boolean {
  let outTime = 0;
  try {
    outTime = statSync(output).mtimeMs;
  } catch {
    return true;
  }
  return newestMtime(inputs) > outTime;
}
