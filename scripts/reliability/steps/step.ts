/** What every reliability step gets and gives back (run.ts puts the sections in docs/reliability.md). */
export interface ReliabilityConfig {
  quick: boolean;
  /** Load duration per target. */
  seconds: number;
  connections: number;
  /** fast-check seed: the same seed sends the same requests. */
  seed: number;
  skipWrangler: boolean;
}

export type Log = (message: string) => void;

/** One section of the report; `failures` counts what the step found wrong. */
export interface Section {
  title: string;
  body: string;
  failures: number;
}

/** A part of a step that could not run, in place of its result. */
export interface Failed {
  error: string;
}

/** The first lines of an error's stack (or the value itself), for the report. */
export function describeError(err: unknown, lines = 4): string {
  return String((err as Error | undefined)?.stack ?? err)
    .split('\n')
    .slice(0, lines)
    .join(' ');
}
