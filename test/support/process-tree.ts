import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';

/** A process's parent and state from /proc (Linux), or undefined once it is gone. */
function procStat(pid: number): { ppid: number; state: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses.
    const [state = '', ppid = '0'] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(ppid), state };
  } catch {
    return undefined;
  }
}

/** Every live descendant of `pid`: children, their children, and so on. */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = procStat(Number(name));
    if (stat) parents.set(Number(name), stat.ppid);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const [child, ppid] of parents)
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
  }
  return found;
}

/** Running, sleeping or stopped; not gone, and not a zombie waiting to be reaped (it holds nothing). */
export function isAlive(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

/** A process's command line, for a failure message. */
export function commandOf(pid: number): string {
  try {
    return `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()}`;
  } catch {
    return `${pid}: (gone)`;
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
export function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface NpmRun {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILLs the whole process group: cleanup after a failed test, never the check itself. */
  killGroup(): void;
}

/** `npm <args>` in `cwd` as a real process, in a process group of its own so a failed test can clean up. */
export function spawnNpm(args: string[], cwd: string, env: NodeJS.ProcessEnv): NpmRun {
  const child = spawn('npm', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => output,
    exited,
    killGroup() {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}
