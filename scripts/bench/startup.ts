import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { SERVER_NODE_FLAGS } from '../lib/supervisor/server-node-flags.ts';
import { cpuMs as cpuMsOf } from './lib/load.ts';
import { freePort, onCleanup } from './lib/processes.ts';

/**
 * Start-up and resting memory: how long `node SCRIPT` takes from spawn to
 * its first 200 on `path`, and its resident set 5 s after the spawn, for the
 * real server and the bare Hono baseline alike (same Node, same kind of child
 * process, no preload). Each is started `repeats` times, alternating, and the
 * median is kept: a shared machine makes single start-ups noisy.
 */
export interface StartupSample {
  firstOkMs: number;
  /** The process's own CPU time (user + system) until then: what waiting for a busy core does not inflate. */
  cpuMs: number | null;
  rssMiB: number;
}
export interface StartupResult {
  firstOkMs: number;
  cpuMs: number | null;
  rssMiB: number;
  samples: StartupSample[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function status(url: string): Promise<number | null> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? null));
    });
    req.on('error', () => resolve(null));
    req.setTimeout(2000, () => req.destroy());
  });
}

const rssMiB = (pid: number): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) / 1024;
};

async function startOnce(
  script: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
  path: string,
  logFile: string,
  restSeconds: number,
): Promise<StartupSample> {
  const port = await freePort();
  const out = openSync(logFile, 'a');
  const t0 = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, script], {
    cwd,
    env: { PATH: process.env.PATH, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const kill = () => child.exitCode === null && child.kill('SIGKILL');
  onCleanup(kill);
  try {
    let firstOkMs = Number.NaN;
    let cpuMs: number | null = null;
    const url = `http://127.0.0.1:${port}${path}`;
    while (performance.now() - t0 < 30_000) {
      if (child.exitCode !== null) throw new Error(`${script} exited during start-up (see ${logFile})`);
      if ((await status(url)) === 200) {
        firstOkMs = performance.now() - t0;
        cpuMs = cpuMsOf(child.pid);
        break;
      }
      await sleep(2);
    }
    if (Number.isNaN(firstOkMs)) throw new Error(`${script}: no 200 on ${path} within 30 s`);
    await sleep(Math.max(0, restSeconds * 1000 - (performance.now() - t0)));
    return { firstOkMs, cpuMs, rssMiB: rssMiB(child.pid!) };
  } finally {
    kill();
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface StartupTarget {
  key: string;
  script: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  path: string;
  logFile: string;
}

export async function measureStartup<K extends string>(
  targets: readonly (StartupTarget & { key: K })[],
  { repeats = 3, restSeconds = 5 } = {},
): Promise<Record<K, StartupResult>> {
  const samples = targets.map((): StartupSample[] => []);
  for (let i = 0; i < repeats; i++) {
    for (const [k, t] of targets.entries())
      samples[k]!.push(await startOnce(t.script, t.env, t.cwd, t.path, t.logFile, restSeconds));
  }
  return Object.fromEntries(
    targets.map((t, k) => {
      const s = samples[k]!;
      const cpu = s.map((x) => x.cpuMs);
      return [
        t.key,
        {
          firstOkMs: median(s.map((x) => x.firstOkMs)),
          cpuMs: cpu.every((c) => c !== null) ? median(cpu as number[]) : null,
          rssMiB: median(s.map((x) => x.rssMiB)),
          samples: s,
        },
      ];
    }),
  ) as Record<K, StartupResult>;
}
