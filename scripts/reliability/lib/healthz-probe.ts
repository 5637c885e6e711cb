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
const CHILD = fileURLToPath(new URL('./healthz-probe.child.mjs', import.meta.url));

export async function startHealthzProbe(origin) {
  const child = spawn(process.execPath, [CHILD, origin], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const replies = [];
  child.on('message', (m) => replies.shift()?.(m));
  const ask = (type) =>
    new Promise((resolve) => {
      replies.push(resolve);
      child.send({ type });
    });
  await ask('mark'); // up and asking
  return {
    /** @returns {Promise<{ worstMs: number, samples: number, failures: number }>} */
    mark: () => ask('mark'),
    stop() {
      child.kill();
    },
  };
}

/** Resident set of a process in bytes (Linux /proc), or null elsewhere. */
export function rssBytes(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}
