/// <reference types="vite/client" />

/**
 * Contract suites found by name rather than listed: every file matching a
 * pattern exports exactly one `run…Contract` function, and the runners call
 * them all. A new feature's suite runs on every target without a line here.
 */
export function suitesIn<Suite>(modules: Record<string, Record<string, unknown>>, name: RegExp): [string, Suite][] {
  const found = Object.entries(modules).map(([file, module]) => {
    const runners = Object.entries(module).filter(([key, value]) => name.test(key) && typeof value === 'function');
    if (runners.length !== 1) throw new Error(`${file} must export exactly one function named like ${name}`);
    return [file, runners[0]![1] as Suite] as [string, Suite];
  });
  if (found.length === 0) throw new Error(`no suite matches ${name}`);
  return found;
}
