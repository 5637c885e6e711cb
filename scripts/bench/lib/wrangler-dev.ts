import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, onCleanup } from './processes.ts';

/**
 * `wrangler dev` for the Workers benchmark (scripts/bench/workers.ts):
 * local mode, offline, on 127.0.0.1 and a free port, state in the run's temp
 * directory, its own process group (killed whole on every way out, workerd
 * included), output to a log file.
 *
 * wrangler dev runs two workerd processes: a proxy that owns the public port
 * and forwards each request, and the one that runs the Worker (its entry
 * socket on a port of its own, with D1, the Cache API and the Durable
 * Objects in the same process). The CPU measured is the second one's.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const WRANGLER = path.join(root, 'node_modules/.bin/wrangler');

export const OFFLINE = {
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
};

export interface WranglerDev {
  url: string;
  /** The workerd process that runs the Worker. */
  workerPid: number;
  /** wrangler's DevTools inspector (its /json lists the Worker's socket; lib/isolate-cpu.ts). */
  inspectorUrl: string;
  logFile: string;
  stop(): Promise<void>;
}

/** Offline, and wrangler's own debug logs beside `logFile` (in the run's temp directory), not in ~/.config. */
const envFor = (logFile: string): NodeJS.ProcessEnv => ({
  ...process.env,
  ...OFFLINE,
  WRANGLER_LOG_PATH: path.join(path.dirname(logFile), 'wrangler-logs'),
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tail = (file: string) => {
  try {
    return readFileSync(file, 'utf8').slice(-3000);
  } catch {
    return '(no output)';
  }
};

/** A wrangler command that must succeed (e.g. `d1 migrations apply`); its output goes to `logFile`. */
export function wrangler(args: string[], logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = openSync(logFile, 'a');
    const child = spawn(WRANGLER, args, {
      cwd: root,
      env: envFor(logFile),
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    onCleanup(() => child.exitCode === null && child.kill('SIGKILL'));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`wrangler ${args.join(' ')} failed (${code ?? signal}):\n${tail(logFile)}`)),
    );
  });
}

/** The processes of a process group: pid, command name and command line, from /proc. */
function groupMembers(pgid: number): { pid: number; comm: string; cmdline: string }[] {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      found.push({ pid: Number(entry), comm, cmdline });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

export async function startWranglerDev({
  name,
  args,
  logFile,
  readyPath,
  timeoutMs = 120_000,
}: {
  name: string;
  /** After `wrangler dev`: config, vars, persistence. */
  args: string[];
  logFile: string;
  readyPath: string;
  timeoutMs?: number;
}): Promise<WranglerDev> {
  const port = await freePort();
  const inspectorPort = await freePort();
  // wrangler bundles the repository's Worker into its .wrangler/tmp and removes that when stopped
  // gracefully; after a SIGKILL (Ctrl-C of the benchmark) the benchmark removes what appeared there.
  const bundles = path.join(root, '.wrangler/tmp');
  const before = new Set(existsSync(bundles) ? readdirSync(bundles) : []);
  const removeBundles = () => {
    if (!existsSync(bundles)) return;
    for (const entry of readdirSync(bundles))
      if (!before.has(entry)) rmSync(path.join(bundles, entry), { recursive: true, force: true });
  };
  const out = openSync(logFile, 'a');
  const child = spawn(
    WRANGLER,
    [
      'dev',
      ...args,
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-ip',
      '127.0.0.1',
      '--inspector-port',
      String(inspectorPort),
      '--show-interactive-dev-session=false',
    ],
    { cwd: root, env: envFor(logFile), stdio: ['ignore', out, out], detached: true },
  );
  closeSync(out);
  const pgid = child.pid!;
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pgid, signal);
    } catch {
      // already gone
    }
  };
  onCleanup(() => kill('SIGKILL'));
  onCleanup(removeBundles); // after the kill: nothing writes there any more
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  child.on('error', () => {});
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name}: wrangler dev exited (${child.exitCode}):\n${tail(logFile)}`);
    try {
      const res = await fetch(url + readyPath, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      kill('SIGKILL');
      throw new Error(`${name}: no 200 on ${readyPath} within ${timeoutMs / 1000} s:\n${tail(logFile)}`);
    }
    await sleep(250);
  }
  // The workerd that is not the proxy on the public port.
  const workers = groupMembers(pgid).filter(
    (p) => p.comm === 'workerd' && !p.cmdline.includes(`--socket-addr=entry=127.0.0.1:${port} `),
  );
  if (workers.length !== 1) {
    kill('SIGKILL');
    throw new Error(
      `${name}: expected one workerd running the Worker beside the proxy, found ${workers.length}: ${groupMembers(pgid)
        .map((p) => `${p.pid} ${p.cmdline.slice(0, 160)}`)
        .join('; ')}`,
    );
  }
  return {
    url,
    workerPid: workers[0]!.pid,
    inspectorUrl: `http://127.0.0.1:${inspectorPort}`,
    logFile,
    async stop() {
      if (child.exitCode === null) {
        // SIGINT to wrangler alone, as Ctrl-C in its terminal: it stops workerd and removes the bundles it
        // wrote to the project's .wrangler/tmp (a signal to the whole group leaves them behind).
        child.kill('SIGINT');
        const timer = setTimeout(() => kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      kill('SIGKILL'); // anything that outlived wrangler
    },
  };
}
