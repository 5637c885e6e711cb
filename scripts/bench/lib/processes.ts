import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../lib/supervisor/server-node-flags.ts';

/**
 * Child processes and temp dirs of one benchmark run, and their clean-up on
 * every way out: normal end, failure, Ctrl-C (SIGINT), SIGTERM, SIGHUP.
 */

const ORPHAN_GUARD = fileURLToPath(new URL('./orphan-guard.ts', import.meta.url));

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();
const cleanups: (() => void)[] = [];

export function trackTempDir(dir: string): string {
  tempDirs.add(dir);
  return dir;
}

/** Extra clean-up (e.g. closing a database handle) run before temp dirs go. */
export function onCleanup(fn: () => void): void {
  cleanups.push(fn);
}

/** Synchronous, so that it also works from process.on('exit'). */
export function cleanupNow(): void {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  children.clear();
  for (const fn of cleanups.splice(0)) {
    try {
      fn();
    } catch {
      // best effort
    }
  }
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  tempDirs.clear();
}

/**
 * Runs a bench script's `main` to its end: then, whether it succeeded or
 * failed, its child processes and temp directory go (cleanupNow) and `late`
 * runs (what must wait for them, such as dropping a PostgreSQL schema they
 * used); a failure is one line on stderr and exit code 1.
 */
export function runBench(main: () => Promise<unknown>, late: () => Promise<unknown> = async () => {}): void {
  const end = async (code: number) => {
    cleanupNow();
    await late();
    process.exit(code);
  };
  main().then(
    () => end(0),
    (err: unknown) => {
      console.error(`\nbench failed: ${err instanceof Error ? err.message : String(err)}`);
      return end(1);
    },
  );
}

let installed = false;
export function installExitHandlers(): void {
  if (installed) return;
  installed = true;
  process.on('exit', cleanupNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping servers and removing temp files\n`);
      cleanupNow();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
}

/** A port that was free a moment ago on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

/**
 * Starts `node [--import orphan-guard] script` on 127.0.0.1:PORT with exactly
 * `env` (plus PATH), logs to `logFile`, and resolves once `readyPath` answers
 * 200. Both servers of the benchmark are started by this one function, so
 * they differ only in the script they run.
 */
export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StartedServer {
  name: string;
  url: string;
  port: number;
  pid: number | undefined;
  stop(graceMs?: number): Promise<ServerExit>;
}

export interface StartServerOptions {
  name: string;
  script: string;
  env: NodeJS.ProcessEnv;
  cwd?: string;
  logFile: string;
  readyPath?: string;
  timeoutMs?: number;
}

export async function startServer({
  name,
  script,
  env,
  cwd,
  logFile,
  readyPath = '/',
  timeoutMs = 30_000,
}: StartServerOptions): Promise<StartedServer> {
  const port = await freePort();
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', ORPHAN_GUARD, script], {
    cwd,
    env: { PATH: process.env.PATH, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', out, out, 'ipc'],
  });
  closeSync(out);
  children.add(child);
  const seen: { exit?: ServerExit } = {};
  const exited = new Promise<ServerExit>((resolve) => {
    child.on('exit', (code, signal) => {
      seen.exit = { code, signal };
      children.delete(child);
      resolve(seen.exit);
    });
  });
  child.on('error', () => {});

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { exit } = seen;
    if (exit) {
      throw new Error(
        `${name} exited during start-up (code ${exit.code}, signal ${exit.signal}). Its output:\n${tail(logFile)}`,
      );
    }
    try {
      const res = await fetch(url + readyPath, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `${name} did not answer 200 on ${readyPath} within ${timeoutMs / 1000} s. Its output:\n${tail(logFile)}`,
      );
    }
    await sleep(100);
  }

  return {
    name,
    url,
    port,
    pid: child.pid,
    /** SIGTERM (the servers close gracefully), SIGKILL after `graceMs`. */
    async stop(graceMs = 12_000) {
      if (seen.exit) return seen.exit;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}
