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

/**
 * The fastest run of each of two workloads by `clock` (ms), taken in turns after one untimed run of
 * each: whatever the process is going through meanwhile (a garbage collector's old generation grown
 * by the larger input, a burst of load) reaches both, not the one measured second. workerd has no
 * CPU clock of its own: its tests pass `performance.now`.
 */
export function fastestOfEach(
  small: () => void,
  large: () => void,
  clock: () => number = cpuMs,
  times = 5,
): [number, number] {
  small();
  large();
  const timed = (run: () => void) => {
    const started = clock();
    run();
    return clock() - started;
  };
  let [bestSmall, bestLarge] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (let i = 0; i < times; i++) {
    bestSmall = Math.min(bestSmall, timed(small));
    bestLarge = Math.min(bestLarge, timed(large));
  }
  return [bestSmall, bestLarge];
}

/** `fastestOfEach` for asynchronous workloads (a request to the app in this process), on this process's CPU clock. */
export async function fastestOfEachAsync(
  small: () => Promise<void>,
  large: () => Promise<void>,
  times = 3,
): Promise<[number, number]> {
  await small();
  await large();
  const timed = async (run: () => Promise<void>) => {
    const started = cpuMs();
    await run();
    return cpuMs() - started;
  };
  let [bestSmall, bestLarge] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (let i = 0; i < times; i++) {
    bestSmall = Math.min(bestSmall, await timed(small));
    bestLarge = Math.min(bestLarge, await timed(large));
  }
  return [bestSmall, bestLarge];
}
