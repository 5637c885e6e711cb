import { type SpawnOptions, spawn } from 'node:child_process';

/**
 * The stop signals a process manager, a terminal or npm sends. npm passes
 * SIGINT and SIGTERM on to the script it runs; a script that runs the real
 * server as a child must pass them on again and wait, or a stop would leave
 * that child orphaned and serving.
 */
export const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export interface ChildOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Runs `cmd` as a child with stdio inherited, passing every stop signal this
 * process receives on to it while it runs; resolves when it has exited. A
 * child that cannot be started resolves as code 127 (and its error is printed).
 */
export function runForwarding(cmd: string, args: string[], options: SpawnOptions = {}): Promise<ChildOutcome> {
  const child = spawn(cmd, args, { stdio: 'inherit', ...options });
  const pass = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, pass);
  return new Promise((resolve) => {
    const done = (outcome: ChildOutcome) => {
      for (const signal of STOP_SIGNALS) process.off(signal, pass);
      resolve(outcome);
    };
    child.once('error', (err) => {
      console.error(`${cmd}: ${err.message}`);
      done({ code: 127, signal: null });
    });
    child.once('exit', (code, signal) => done({ code, signal }));
  });
}

/** Ends this process as the child ended: the same exit code, or killed by the same signal (as a shell reports it). */
export function exitAs(outcome: ChildOutcome): never {
  if (outcome.signal) {
    // No handler is left for it, so this ends the process the signal's way.
    for (const signal of STOP_SIGNALS) process.removeAllListeners(signal);
    process.kill(process.pid, outcome.signal);
  }
  process.exit(outcome.code ?? 1);
}

/** Runs a step (an install, a build) that must succeed; a failure or a stop ends this process likewise. */
export async function runStep(cmd: string, args: string[], options: SpawnOptions = {}): Promise<void> {
  const outcome = await runForwarding(cmd, args, options);
  if (outcome.code !== 0) exitAs(outcome);
}
