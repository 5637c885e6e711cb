import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Asks `/healthz` back to back (5 ms apart) from a process of its own, so
 * that what the runner does meanwhile (building a 300 MiB body, its own
 * garbage collection) never counts as the server's delay. `mark()` returns
 * the slowest answer since the previous mark; a request still unanswered
 * counts for as long as it has waited.
 */
const CHILD = fileURLToPath(new URL('./healthz-probe.child.ts', import.meta.url));

/** What the probe saw since the previous mark. */
export interface ProbeMark {
  worstMs: number;
  samples: number;
  failures: number;
}

export interface HealthzProbe {
  mark(): Promise<ProbeMark>;
  stop(): void;
}

export async function startHealthzProbe(origin: string): Promise<HealthzProbe> {
  const child = spawn(process.execPath, [CHILD, origin], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const replies: ((mark: ProbeMark) => void)[] = [];
  child.on('message', (m) => replies.shift()?.(m as ProbeMark));
  const ask = (type: 'mark') =>
    new Promise<ProbeMark>((resolve) => {
      replies.push(resolve);
      child.send({ type });
    });
  await ask('mark'); // up and asking
  return {
    mark: () => ask('mark'),
    stop() {
      child.kill();
    },
  };
}

/** Resident set of a process in bytes (Linux /proc), or null elsewhere. */
export function rssBytes(pid: number | undefined): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}
