import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from './server-node-flags.ts';

/**
 * One release's server as a child process: started from its directory with
 * the install directory as working directory (data/ stays in one place for
 * every version), an IPC channel for the apply/rollback handshake — the
 * server stops itself when that channel closes, so a kill -9 of the
 * supervisor never leaves an orphan holding the port.
 */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningChild {
  child: ChildProcess;
  exited: Promise<ChildExit>;
  pid: number | undefined;
}

export interface StartChildOptions {
  installDir: string;
  appDir: string;
  env: NodeJS.ProcessEnv;
  onMessage?: (message: unknown, child: ChildProcess) => void;
}

export function startChild({ installDir, appDir, env, onMessage }: StartChildOptions): RunningChild {
  const dir = path.resolve(installDir, appDir);
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(dir, 'dist/node/server.mjs')], {
    cwd: installDir,
    env: { ...env, CMS_APP_ROOT: dir, CMS_RELEASES_DIR: path.join(installDir, 'releases'), CMS_SUPERVISED: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<ChildExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.on('message', (m) => onMessage?.(m, child));
  child.on('error', () => {}); // a failed spawn also emits 'exit'
  return { child, exited, pid: child.pid };
}

/** SIGTERM, then SIGKILL after the grace period; resolves when it is gone. */
export async function stopChild(running: RunningChild | null | undefined, graceMs = 15_000): Promise<void> {
  if (!running || running.child.exitCode !== null || running.child.signalCode !== null) return;
  running.child.kill('SIGTERM');
  const timer = setTimeout(() => running.child.kill('SIGKILL'), graceMs);
  await running.exited;
  clearTimeout(timer);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Healthy = /readyz answers 200 and /v1/system/version names the expected
 * version (so another process on the port, or a mislabelled build, is not
 * taken for the new release). Resolves null when healthy, else the reason.
 */
export async function waitHealthy({
  baseUrl,
  version,
  timeoutMs,
  running,
}: {
  baseUrl: string;
  version: string;
  timeoutMs: number;
  running: RunningChild;
}): Promise<string | null> {
  const deadline = Date.now() + timeoutMs;
  const seen: { exit?: ChildExit } = {};
  void running.exited.then((e) => {
    seen.exit = e;
  });
  let last = 'no answer';
  while (Date.now() < deadline) {
    const { exit } = seen;
    if (exit) return `the server exited (${exit.signal ?? `code ${exit.code}`}) before it was ready`;
    try {
      const ready = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await ready.body?.cancel();
      if (ready.status === 200) {
        const v = await fetch(`${baseUrl}/v1/system/version`, { signal: AbortSignal.timeout(2_000) }).then(
          (r) => r.json() as Promise<{ version?: string }>,
        );
        if (v.version === version) return null;
        last = `/v1/system/version says ${v.version}, expected ${version}`;
      } else {
        last = `/readyz answered ${ready.status}`;
      }
    } catch (e) {
      const err = e as Error & { cause?: { code?: string } };
      last = err.cause?.code ?? err.message;
    }
    await sleep(250);
  }
  return `not healthy within ${Math.round(timeoutMs / 1000)} s (${last})`;
}

function alive(pid: number): boolean {
  try {
    // a zombie (exited, not yet reaped by its new parent) holds no port
    if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) return false;
  } catch {
    // no /proc entry: fall back to signal 0
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Kills a server a previous supervisor left behind (the recorded pid, and
 * only when its command line is that release's server), and waits until it
 * is gone so that the port is free.
 */
export async function killLeftover(pid: number | null | undefined, appDir: string): Promise<void> {
  if (!pid) return;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!cmdline.includes(path.join(appDir, 'dist/node/server.mjs'))) return;
  } catch {
    return; // gone, or no /proc to tell whether the pid is still ours: leave it
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return;
  }
  for (let i = 0; i < 100 && alive(pid); i++) await sleep(50);
}
