/**
 * Timing for tests that check linearity as a ratio. CPU time (user + system)
 * of this process, not wall time: on a shared machine other processes take
 * the cores away, which stretches wall time by any factor but leaves the
 * CPU this process spent nearly as it was. The fastest of a few runs, after
 * one untimed run that pays for compiling.
 */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export function fastestCpuMs(run: () => void, times = 5): number {
  run();
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i++) {
    const started = cpuMs();
    run();
    best = Math.min(best, cpuMs() - started);
  }
  return best;
}

export async function fastestCpuMsAsync(run: () => Promise<void>, times = 3): Promise<number> {
  await run();
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i++) {
    const started = cpuMs();
    await run();
    best = Math.min(best, cpuMs() - started);
  }
  return best;
}
